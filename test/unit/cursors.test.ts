import { formatPrismaCursor } from "@pothos/plugin-prisma";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { connectionCursors, eventCursors } from "../../src/domain/cursors.js";
import { ValidationError } from "../../src/domain/errors.js";

const ID = "2f0c2a7e-5d4b-4a8f-9a51-0c3b1d2e4f60";
const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const base64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");
/** A cursor exactly as the paymentRequests and transactions connections issue it. */
const issued = (id: string) => formatPrismaCursor({ id }, "id");

describe("the connections' cursors", () => {
  it("reads back the id of any cursor a list issued", () => {
    expect(connectionCursors.decode(issued(ID))).toBe(ID);
    fc.assert(fc.property(fc.uuid(), (id) => connectionCursors.decode(issued(id)) === id));
  });

  it("are written as Pothos writes them", () => {
    fc.assert(fc.property(fc.uuid(), (id) => connectionCursors.encode(id) === issued(id)));
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
    ["an events cursor", eventCursors.encode({ createdAt: new Date(0), id: ID })],
  ])("refuses %s with BAD_REQUEST", (_label, cursor) => {
    expect(() => connectionCursors.decode(cursor)).toThrow(ValidationError);
    expect(() => connectionCursors.decode(cursor)).toThrow(
      expect.objectContaining({ code: "BAD_REQUEST", message: "after and before must be cursors returned by this list." }),
    );
  });
});

describe("the events list's cursors", () => {
  const at = new Date("2026-11-27T10:11:12.345Z");
  const cursor = base64url(`events:${at.getTime()}:${ID}`);

  it("are the position of an event, read back exactly", () => {
    expect(eventCursors.encode({ createdAt: at, id: ID })).toBe(cursor);
    expect(eventCursors.decode(cursor)).toEqual({ createdAt: at, id: ID });
    fc.assert(
      fc.property(
        fc.date({ min: new Date(0), max: new Date("9999-12-31T23:59:59.999Z"), noInvalidDate: true }),
        fc.uuid(),
        (date, id) => {
          const position = { createdAt: date, id: id.toLowerCase() };
          expect(eventCursors.decode(eventCursors.encode(position))).toEqual(position);
        },
      ),
    );
  });

  it.each([
    ["padded", `${cursor}=`],
    ["cut short", cursor.slice(0, -1)],
    ["with a leading zero", base64url(`events:0${at.getTime()}:${ID}`)],
    ["with an upper-case id", base64url(`events:${at.getTime()}:${ID.toUpperCase()}`)],
    ["past the last instant a timestamp holds", base64url(`events:253402300800000:${ID}`)],
    ["of another prefix", base64url(`other:${at.getTime()}:${ID}`)],
    ["a connection's", issued(ID)],
    ["not a cursor", "not a cursor"],
  ])("refuse one %s with BAD_REQUEST", (_label, given) => {
    expect(() => eventCursors.decode(given)).toThrow(
      expect.objectContaining({ code: "BAD_REQUEST", message: "after must be a cursor returned by this list." }),
    );
  });
});
