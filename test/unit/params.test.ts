import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/domain/errors.js";
import { mergeParams } from "../../src/http/rest/params.js";

const FORM = "application/x-www-form-urlencoded";
const JSON_TYPE = "application/json";
/** A query string as it arrives (without its `?`). */
const query = (text: string) => text;

describe("mergeParams", () => {
  it("takes the query string alone when the body is blank, whatever its type", () => {
    expect(mergeParams(query("asset=NZD&amount=1"), "", undefined)).toEqual({ asset: "NZD", amount: "1" });
    expect(mergeParams(query("asset=NZD"), " \n", JSON_TYPE)).toEqual({ asset: "NZD" });
    expect(mergeParams(query("asset=NZD"), "", "text/plain")).toEqual({ asset: "NZD" });
  });

  it("overlays a form body on the query string: the body wins", () => {
    expect(mergeParams(query("asset=NZD&amount=1"), "amount=2&description=Flat+white%21", FORM)).toEqual({
      asset: "NZD",
      amount: "2",
      description: "Flat white!",
    });
  });

  it("reads a body without a content type as a form", () => {
    expect(mergeParams(query("amount=1"), "amount=2", undefined)).toEqual({ amount: "2" });
  });

  it("overlays a JSON body on the query string, keeping its values' types", () => {
    const body = JSON.stringify({ amount: 2, description: null });
    expect(mergeParams(query("asset=NZD&amount=1"), body, JSON_TYPE)).toEqual({ asset: "NZD", amount: 2, description: null });
    expect(mergeParams(query(""), body, "Application/JSON; charset=utf-8")).toEqual({ amount: 2, description: null });
  });

  it("does not let a JSON body reach Object.prototype", () => {
    const merged = mergeParams(query(""), '{"__proto__": {"polluted": true}}', JSON_TYPE);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ["malformed JSON", "{", JSON_TYPE],
    ["a JSON list", "[1]", JSON_TYPE],
    ["JSON null", "null", JSON_TYPE],
    ["a JSON string", '"amount=1"', JSON_TYPE],
    ["a bare JSON integer", "300", JSON_TYPE],
    ["a bare JSON number outside the integer grammar", "1.5", JSON_TYPE],
    ["a bare JSON number in exponent form", "1e3", JSON_TYPE],
    ["JSON true", "true", JSON_TYPE],
    ["another content type", "amount=1", "text/plain"],
    ["a multipart body", "amount=1", "multipart/form-data; boundary=x"],
  ])("refuses %s with BAD_REQUEST", (_label, body, type) => {
    expect(() => mergeParams(query(""), body, type)).toThrow(expect.objectContaining({ code: "BAD_REQUEST" }));
    expect(() => mergeParams(query(""), body, type)).toThrow(ValidationError);
  });

  it("gives any query and form body the body's value for every name they share", () => {
    const params = fc.dictionary(
      fc.string().filter((name) => name !== "__proto__"),
      fc.string(),
    );
    fc.assert(
      fc.property(params, params, (inQuery, inBody) => {
        const body = new URLSearchParams(inBody).toString();
        expect(mergeParams(new URLSearchParams(inQuery).toString(), body, FORM)).toEqual({ ...inQuery, ...inBody });
      }),
    );
  });

  it("reads percent-encoded bytes that are not UTF-8 (an encoded lone surrogate) as ill-formed text, not U+FFFD, in the query and the body", () => {
    for (const encoded of ["%ED%A0%80", "%ED%B0%80", "%FF", "%C3", "%E2%82"]) {
      const merged = mergeParams(query(`description=a${encoded}b`), `externalReference=r${encoded}`, FORM);
      expect(merged.description, encoded).toMatch(/^a\uD800b$/);
      expect(merged.externalReference, encoded).toMatch(/^r\uD800$/);
    }
    // Well-formed encodings, and a stray percent sign, read as before.
    expect(mergeParams(query("description=caf%C3%A9+100%25&note=100%"), "", FORM)).toEqual({
      description: "café 100%",
      note: "100%",
    });
  });
});
