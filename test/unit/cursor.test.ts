import { formatPrismaCursor } from "@pothos/plugin-prisma";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/domain/errors.js";
import { decodeListCursor } from "../../src/graphql/list-cursor.js";

const ID = "2f0c2a7e-5d4b-4a8f-9a51-0c3b1d2e4f60";
const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
/** A cursor exactly as the paymentRequests and transactions connections issue it. */
const issued = (id: string) => formatPrismaCursor({ id }, "id");

describe("decodeListCursor", () => {
  it("reads back the id of any cursor a list issued", () => {
    expect(decodeListCursor(issued(ID))).toBe(ID);
    fc.assert(fc.property(fc.uuid(), (id) => decodeListCursor(issued(id)) === id));
  });

  it.each([
    ["text that is not base64", "not a cursor!"],
    ["base64 of garbage", base64("garbage")],
    ["a cursor with no id", base64("GPC:S:")],
    ["an id that is not a UUID", base64("GPC:S:not-a-uuid")],
    ["a padded UUID", base64(`GPC:S: ${ID}`)],
    ["a number cursor", base64("GPC:N:5")],
    ["a null cursor", base64("GPC:Z:")],
    ["a compound cursor", base64(`GPC:T:["S:${ID}"]`)],
    ["another plugin's prefix", base64(`OTHER:S:${ID}`)],
    ["an issued cursor with a newline after it", `${issued(ID)}\n`],
    ["the empty string", ""],
  ])("refuses %s with BAD_REQUEST", (_label, cursor) => {
    expect(() => decodeListCursor(cursor)).toThrow(ValidationError);
    expect(() => decodeListCursor(cursor)).toThrow(expect.objectContaining({ code: "BAD_REQUEST" }));
  });
});
