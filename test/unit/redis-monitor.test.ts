import { describe, expect, it } from "vitest";
import { monitoredWords } from "../redis-monitor.js";

describe("a MONITOR line", () => {
  it("reads as the command's words, Redis's escapes undone", () => {
    expect(
      monitoredWords(String.raw`+1795858936.649454 [0 lua] "evalsha" "ab12" "2" "payreq:{k}:a" "say \"hi\"\n\x01\\"`),
    ).toEqual(["evalsha", "ab12", "2", "payreq:{k}:a", 'say "hi"\n\x01\\']);
  });
});
