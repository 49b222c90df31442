/**
 * The REST fuzzers' classes over every pay-page route and header: codes in the path and the query
 * (NUL, unpaired surrogates, percent-encoded bytes that are not UTF-8, over-long, real ones), the
 * headers a browser or an attacker sends (Accept-Language with prototype names, Accept, Origin,
 * Sec-Fetch-Site, Cookie, Content-Type) and form bodies of every kind (URL-encoded, multipart,
 * malformed multipart, JSON, plain text). None may answer 5xx, and a refused payment changes nothing.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../fixtures.js";
import { buildRequest, buildWallet, walletBalance } from "../factories.js";
import { illFormedText } from "../parameters.js";

let code: string;
let shortCode: string;
let requestId: string;
let walletId: string;
let csrf: string;

beforeAll(async () => {
  const { request } = await buildRequest({ amount: 300 });
  ({ requestCode: code, shortCode, id: requestId } = request);
  walletId = (await buildWallet(200)).walletId;
  // A form token of the page's own, so that some posts get past the CSRF check to the payment.
  const page = await app.fetch(new Request(`http://test/pay/${code}`));
  csrf = /payreq_pay_csrf=([^;]+)/.exec(page.headers.get("set-cookie") ?? "")![1]!;
});

/** A code as it may appear in an address: real, noise, or text PostgreSQL cannot take, percent-encoded or not. */
const codeInPath = () =>
  fc.oneof(
    fc
      .constantFrom(
        () => code,
        () => shortCode,
        () => shortCode.toLowerCase().replace(/-/g, " "),
      )
      .map((of) => encodeURIComponent(of())),
    fc.constantFrom(
      "%00abc",
      "%00",
      "abc%00",
      "%ED%A0%80",
      "%C0%AF",
      "%FF",
      "%",
      "%zz",
      "..%2F..",
      "x".repeat(300),
      "PR-%00X-2QD",
    ),
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
    illFormedText().map((text) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, "")) + "%00"),
  );

const LANGUAGES = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "es",
  "es-ES;q=0.5, __proto__",
  "*",
  ";q=",
  "en;q=NaN",
  "",
];
const header = (name: string, values: fc.Arbitrary<string>) =>
  fc.option(
    values.map((value) => [name, value] as const),
    { nil: undefined },
  );

const headers = () =>
  fc
    .tuple(
      header("accept-language", fc.oneof(fc.constantFrom(...LANGUAGES), fc.string({ maxLength: 30 }))),
      header("accept", fc.constantFrom("application/json", "text/html", "*/*", "text/event-stream", "application/json;q=0")),
      header("origin", fc.constantFrom("http://test", "null", "https://evil.example", "", "not a url")),
      header("sec-fetch-site", fc.constantFrom("same-origin", "cross-site", "none", "same-site", "")),
      header("cookie", fc.constantFrom("payreq_pay_csrf=", "payreq_pay_csrf=%00", "payreq_pay_csrf=__proto__", "a=b; c")),
      header("if-none-match", fc.constantFrom('"x"', "*", "")),
    )
    .map((pairs) => pairs.filter((pair) => pair !== undefined));

const BOUNDARY = "fuzzboundary";
/** A body for the payment form: the fields of a real one (or noise), in one of the encodings a client may send. */
const body = () =>
  fc.record({
    wallet: fc.oneof(fc.constantFrom(walletId, "", "no-such-wallet", "%ED%A0%80", "%00"), fc.string({ maxLength: 40 })),
    withToken: fc.boolean(),
    key: fc.oneof(fc.uuid(), fc.constantFrom("", " ", "%00", "x".repeat(300))),
    encoding: fc.constantFrom("form", "multipart", "broken multipart", "json", "text", "none"),
  });

type Body = typeof body extends () => fc.Arbitrary<infer T> ? T : never;

function encoded({ wallet, withToken, key, encoding }: Body): { body?: string; type?: string; cookie: string } {
  const cookie = withToken ? `payreq_pay_csrf=${csrf}` : "";
  const fields = { csrf: withToken ? csrf : "guess", idempotencyKey: key, wallet };
  const form = Object.entries(fields)
    .map(([name, value]) => `${name}=${value.startsWith("%") ? value : encodeURIComponent(value)}`)
    .join("&");
  const part = ([name, value]: [string, string]) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  switch (encoding) {
    case "form":
      return { body: form, type: "application/x-www-form-urlencoded", cookie };
    case "multipart":
      return {
        body: Object.entries(fields).map(part).join("") + `--${BOUNDARY}--\r\n`,
        type: `multipart/form-data; boundary=${BOUNDARY}`,
        cookie,
      };
    case "broken multipart":
      return {
        body: `--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nwallet`,
        type: `multipart/form-data; boundary=${BOUNDARY}`,
        cookie,
      };
    case "json":
      return { body: JSON.stringify(fields), type: "application/json", cookie };
    case "text":
      return { body: form, type: "text/plain", cookie };
    case "none":
      return { cookie };
  }
}

/** One call; its body is read to the end (a stream's first event, then it is cancelled). */
async function send(method: string, path: string, headerPairs: (readonly [string, string])[], form?: Body) {
  const given = new Headers(headerPairs as [string, string][]);
  const sent = form ? encoded(form) : undefined;
  if (sent?.type) given.set("content-type", sent.type);
  if (sent?.cookie) given.set("cookie", sent.cookie);
  const answer = await app.fetch(new Request(`http://test${path}`, { method, headers: given, body: sent?.body ?? null }));
  if (answer.headers.get("content-type")?.startsWith("text/event-stream")) {
    const reader = answer.body!.getReader();
    await reader.read();
    await reader.cancel();
  } else await answer.arrayBuffer();
  return answer.status;
}

const call = () =>
  fc.record({
    route: fc.constantFrom("page", "status", "events", "qr", "entry", "pay", "asset"),
    code: codeInPath(),
    query: fc.oneof(
      fc.constant(""),
      codeInPath().map((typed) => `?code=${typed}`),
      fc.constantFrom("?error=__proto__", "?error=%00", "?error=toString"),
    ),
    headers: headers(),
    body: body(),
  });

type Call = typeof call extends () => fc.Arbitrary<infer T> ? T : never;

async function check({ route, code: typed, query, headers: pairs, body: form }: Call) {
  const path = {
    page: `/pay/${typed}${query}`,
    status: `/pay/${typed}/status`,
    events: `/pay/${typed}/events`,
    qr: `/pay/${typed}/qr.svg`,
    entry: `/pay${query}`,
    pay: `/pay/${typed}`,
    asset: "/pay/assets/pay.js",
  }[route];
  const paying = route === "pay";
  const before = paying ? await walletBalance(walletId) : undefined;
  const status = await send(paying ? "POST" : "GET", path, pairs, paying ? form : undefined);
  expect({ path, status }).toEqual({ path, status: expect.any(Number) });
  expect(status, `${route} ${path} ${JSON.stringify(pairs)} ${JSON.stringify(form)}`).toBeLessThan(500);
  if (paying && status !== 200 && status !== 303) expect(await walletBalance(walletId)).toBe(before);
}

/** Each class the issue found answering 500, replayed on every run before the random calls. */
const found = (): Call[] => {
  const plain = { wallet: "", withToken: true, key: "k-1", encoding: "form" } as Body;
  return [
    ...["%00abc", "%00"].flatMap((typed) =>
      (["page", "status", "events", "qr", "pay"] as const).map((route) => ({
        route,
        code: typed,
        query: "",
        headers: [],
        body: plain,
      })),
    ),
    { route: "entry", code: code, query: "?code=%00", headers: [], body: plain },
    ...["__proto__", "constructor"].map((language) => ({
      route: "page" as const,
      code,
      query: "",
      headers: [["accept-language", language] as const],
      body: plain,
    })),
    { route: "pay", code, query: "", headers: [], body: { ...plain, encoding: "broken multipart" } },
  ];
};

const replay = process.env["FUZZ_SEED"] ? { seed: Number(process.env["FUZZ_SEED"]) } : {};

describe("the pay page under malformed calls", () => {
  it("never answers 5xx on any route or header, and a refused payment changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(call(), async (generated) => {
        await check(generated);
      }),
      { numRuns: 250, examples: found().map((found) => [found] as [Call]), ...replay },
    );
    // The request was never paid by the noise: only a real wallet with a real token may pay it, and 200 > 300.
    const status = await (await app.fetch(new Request(`http://test/pay/${code}/status`))).json();
    expect(status).toMatchObject({ requestId, status: "new" });
  });

  it("answers a code with U+0000 as an unknown request (404), in the path and in the query", async () => {
    for (const path of ["/pay/%00abc", "/pay/%00abc/status", "/pay/%00/qr.svg", "/pay/%00/events", "/pay?code=%00"])
      expect({ path, status: await send("GET", path, []) }).toEqual({ path, status: 404 });
  });

  it("speaks English to Accept-Language: __proto__ or constructor", async () => {
    for (const language of ["__proto__", "constructor", "__proto__, es;q=0.1"]) {
      const page = await app.fetch(new Request(`http://test/pay/${code}`, { headers: { "accept-language": language } }));
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(language.includes("es") ? /<html lang="es"/ : /<html lang="en"/);
    }
  });

  it("refuses a malformed multipart form with 400 BAD_REQUEST, paying nothing", async () => {
    const answer = await app.fetch(
      new Request(`http://test/pay/${code}`, {
        method: "POST",
        headers: {
          accept: "application/json",
          "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
          cookie: `payreq_pay_csrf=${csrf}`,
        },
        body: `--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nwallet`,
      }),
    );
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: { code: "BAD_REQUEST", message: expect.any(String) } });
  });

  it("reads a wallet id of bytes that are not UTF-8 as INVALID_AUTHORIZATION, never as U+FFFD", async () => {
    const answer = await app.fetch(
      new Request(`http://test/pay/${code}`, {
        method: "POST",
        headers: {
          accept: "application/json",
          "content-type": "application/x-www-form-urlencoded",
          cookie: `payreq_pay_csrf=${csrf}`,
        },
        body: `csrf=${csrf}&idempotencyKey=${crypto.randomUUID()}&wallet=%ED%A0%80`,
      }),
    );
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { code: "INVALID_AUTHORIZATION" } });
  });
});
