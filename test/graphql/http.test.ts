import { describe, expect, it } from "vitest";
import { app } from "../fixtures.js";
import { buildMerchant } from "../factories.js";

type Body = { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };

async function call(request: Request) {
  const response = await app.fetch(request);
  return { status: response.status, body: (await response.json()) as Body };
}

const lookUp = `query($id: ID) { paymentRequest(id: $id) { id } }`;
const get = (params: Record<string, string>, headers: Record<string, string> = {}) =>
  call(new Request(`http://test/graphql?${new URLSearchParams(params)}`, { headers }));
const post = (contentType: string, body: string, headers: Record<string, string> = {}) =>
  call(new Request("http://test/graphql", { method: "POST", headers: { "content-type": contentType, ...headers }, body }));

describe("GraphQL over GET", () => {
  it("answers variables or extensions that are not JSON with 400 BAD_REQUEST, in a query string or a form", async () => {
    const { apiKey } = await buildMerchant();
    const key = { "x-api-key": apiKey };
    const unreadable: Record<string, string>[] = [
      { variables: "nope" },
      { variables: '{"id": ' },
      { variables: "{'id': 1}" },
      { extensions: "{" },
    ];
    for (const params of unreadable) {
      const answers = [
        await get({ query: lookUp, ...params }, key),
        await post("application/x-www-form-urlencoded", new URLSearchParams({ query: lookUp, ...params }).toString(), key),
      ];
      for (const { status, body } of answers) {
        expect(status, JSON.stringify(params)).toBe(400);
        expect(body.errors?.[0]).toMatchObject({
          message: expect.stringMatching(/variables|extensions/),
          extensions: { code: "BAD_REQUEST" },
        });
      }
    }
    const found = await get({ query: lookUp, variables: JSON.stringify({ id: crypto.randomUUID() }) }, key);
    expect(found.body.errors?.[0]?.extensions?.code).toBe("REQUEST_NOT_FOUND");
  });
});

describe("GraphQL without a key", () => {
  it("is KEY_NOT_AUTHORIZED on GET and POST alike; a call a browser could forge cross-site is refused whole with 401", async () => {
    const forgeable = [
      () => get({ query: lookUp }),
      () => get({ query: "{ __typename }" }),
      () => post("text/plain", JSON.stringify({ query: lookUp })),
      () => post("application/x-www-form-urlencoded", new URLSearchParams({ query: lookUp }).toString()),
      () => post("multipart/form-data; boundary=x", "--x--"),
    ];
    for (const send of forgeable) {
      const { status, body } = await send();
      expect(status, send.toString()).toBe(401);
      expect(body).toEqual({ errors: [{ message: expect.any(String), extensions: { code: "KEY_NOT_AUTHORIZED" } }] });
    }
    // A JSON body cannot be sent cross-site without the browser asking first: its fields answer.
    const json = await post("application/json", JSON.stringify({ query: lookUp, variables: { id: crypto.randomUUID() } }));
    expect(json.body.errors?.[0]?.extensions?.code).toBe("KEY_NOT_AUTHORIZED");
    // An unknown key is no key, over GET too.
    const unknown = await get(
      { query: lookUp, variables: JSON.stringify({ id: crypto.randomUUID() }) },
      { "x-api-key": "mk_000_nope" },
    );
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe("KEY_NOT_AUTHORIZED");
  });
});
