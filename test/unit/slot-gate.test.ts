import { describe, expect, it } from "vitest";
import { slotGate } from "../../worker/slot-gate.js";

describe("a lane's slot gate", () => {
  it("starts a job once its slots are free, first come first served, and never holds more than it has", async () => {
    const gate = slotGate(12);
    const started: string[] = [];
    const take = (name: string, count: number) => gate.take(count).then(() => void started.push(name));
    await take("ten", 10);
    const five = take("five", 5);
    const one = take("one", 1);
    await Promise.resolve();
    // Two are free: "five" waits, and "one" waits behind it.
    expect(started).toEqual(["ten"]);
    gate.give(3);
    await Promise.resolve();
    // Five are free: "five" starts, and "one" waits for the next.
    expect(started).toEqual(["ten", "five"]);
    gate.give(1);
    await five;
    await one;
    expect(started).toEqual(["ten", "five", "one"]);
    // A job larger than the lane takes every slot, once all are free.
    const huge = take("huge", 50);
    gate.give(6);
    await Promise.resolve();
    expect(started).toHaveLength(3);
    gate.give(6);
    await huge;
    expect(started.at(-1)).toBe("huge");
  });
});
