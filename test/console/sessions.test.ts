import { describe, expect, it } from "vitest";
import { createConsoleLink, listConsoleSessions } from "../../src/domain/console/sessions.js";
import { consoleDocuments, documentHashes } from "../../src/http/console/documents.js";
import { buildMerchant, buildRequest, contextFor, operator, type TestMerchant } from "../factories.js";
import { db } from "../prisma.js";
import { createTestApp } from "../test-app.js";

const PUBLIC_URL = "http://127.0.0.1:4999";
const app = createTestApp({}, { publicUrl: PUBLIC_URL });
const ORIGIN = { origin: PUBLIC_URL };

const send = (path: string, init: RequestInit = {}) => app.fetch(new Request(`${PUBLIC_URL}${path}`, init));

/** Opens the link's token as the console's page does: its cookie (name=value) and the session. */
async function signIn(token: string, headers: Record<string, string> = ORIGIN) {
  const answer = await send("/console/sign-in", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ token }),
  });
  const setCookie = answer.headers.get("set-cookie") ?? "";
  return {
    status: answer.status,
    body: (await answer.json()) as Record<string, any>,
    setCookie,
    cookie: setCookie.split(";")[0]!,
  };
}

async function signedIn(merchant: TestMerchant, input: { readOnly?: boolean; label?: string } = {}) {
  const { token } = await createConsoleLink(operator, { merchantId: merchant.merchantId, ...input });
  const session = await signIn(token);
  expect(session.status).toBe(200);
  return { cookie: session.cookie, csrf: session.body["csrfToken"] as string, id: await sessionIdOf(merchant, session.body) };
}

async function sessionIdOf(merchant: TestMerchant, view: Record<string, any>) {
  const [newest] = await listConsoleSessions(operator, merchant.merchantId);
  expect(view["merchantId"]).toBe(merchant.merchantId);
  return newest!.id;
}

/** A GraphQL call as the console's script makes it: the cookie, the CSRF token, the document's hash. */
function consoleCall(
  session: { cookie: string; csrf: string },
  operationName: string,
  variables: Record<string, unknown> = {},
  { headers = {}, body = {} }: { headers?: Record<string, string>; body?: Record<string, unknown> } = {},
) {
  return send("/graphql", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      cookie: session.cookie,
      "x-console-csrf": session.csrf,
      ...ORIGIN,
      ...headers,
    },
    body: JSON.stringify({
      operationName,
      variables,
      extensions: { persistedQuery: { version: 1, sha256Hash: documentHashes[operationName] } },
      ...body,
    }),
  });
}

describe("console sign-in links", () => {
  it("are made by an operator or a merchant key (not a console session), as <PUBLIC_URL>/console/sign-in#<token>", async () => {
    const merchant = await buildMerchant();
    const answer = await send("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": merchant.apiKey },
      body: JSON.stringify({
        query: `mutation { consoleLinkCreate(input: { label: "till 1", readOnly: true }) { __typename ... on ConsoleLink { url expiresAt } } }`,
      }),
    });
    const { consoleLinkCreate: link } = ((await answer.json()) as { data: Record<string, any> }).data;
    expect(link.__typename).toBe("ConsoleLink");
    expect(link.url).toMatch(new RegExp(`^${PUBLIC_URL}/console/sign-in#[\\w-]{43}$`));
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    // The link's session is the merchant's, read-only, labelled.
    const session = await signIn(link.url.split("#")[1]);
    expect(session.body).toMatchObject({ merchantId: merchant.merchantId, label: "till 1", readOnly: true });
    // Only the hash of the token is kept.
    const stored = await db.consoleLink.findFirstOrThrow({ where: { merchantId: merchant.merchantId } });
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(link.url).not.toContain(stored.tokenHash);

    // A console session may not make links (its own would outlive it).
    const writer = await signedIn(merchant, { label: "owner" });
    const fromConsole = (await (await consoleCall(writer, "ConsoleLinkCreate", { input: {} })).json()) as { data: any };
    expect(fromConsole.data.consoleLinkCreate).toMatchObject({ __typename: "ForbiddenError", code: "FORBIDDEN" });
  });

  it("open once, within 15 minutes; an operator's link names a merchant that exists", async () => {
    const merchant = await buildMerchant();
    const { token } = await createConsoleLink(operator, { merchantId: merchant.merchantId });
    expect((await signIn(token)).status).toBe(200);
    const again = await signIn(token);
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ code: "KEY_NOT_AUTHORIZED", message: expect.stringMatching(/used or has expired/) });
    expect(again.setCookie).toBe("");

    const sixteenMinutesAgo = contextFor({ kind: "operator" }, new Date(Date.now() - 16 * 60_000));
    const old = await createConsoleLink(sixteenMinutesAgo, { merchantId: merchant.merchantId });
    expect((await signIn(old.token)).status).toBe(401);
    const fourteenMinutesAgo = contextFor({ kind: "operator" }, new Date(Date.now() - 14 * 60_000));
    expect((await signIn((await createConsoleLink(fourteenMinutesAgo, { merchantId: merchant.merchantId })).token)).status).toBe(
      200,
    );

    for (const token of ["", "x".repeat(43), "x".repeat(5000)]) expect((await signIn(token)).status).toBe(401);
    await expect(createConsoleLink(operator, { merchantId: crypto.randomUUID() })).rejects.toMatchObject({
      code: "MERCHANT_NOT_FOUND",
    });
  });

  it("sign in only from the console's origin, with an HttpOnly, SameSite=Strict cookie (__Host- and Secure over https)", async () => {
    const merchant = await buildMerchant();
    const link = () => createConsoleLink(operator, { merchantId: merchant.merchantId }).then((made) => made.token);
    for (const headers of [{}, { origin: "http://127.0.0.2:4999" }, { origin: "null" }] as Record<string, string>[]) {
      const token = await link();
      expect((await signIn(token, headers)).status).toBe(403);
      // Refused before the link was opened: it still opens.
      expect((await signIn(token)).status).toBe(200);
    }
    const { setCookie } = await signIn(await link());
    expect(setCookie).toMatch(/^payreq_console=[\w-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Strict$/);

    const httpsUrl = "https://127.0.0.1:4443";
    const https = createTestApp({}, { publicUrl: httpsUrl });
    const answer = await https.fetch(
      new Request(`${httpsUrl}/console/sign-in`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: httpsUrl },
        body: JSON.stringify({ token: await link() }),
      }),
    );
    expect(answer.headers.get("set-cookie")).toMatch(
      /^__Host-payreq_console=[\w-]{43}; Max-Age=604800; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
    );
  });
});

describe("a console session", () => {
  it("reads its session, and ends when signed out, idle for 12 hours, or 7 days after it began", async () => {
    const merchant = await buildMerchant();
    const session = await signedIn(merchant, { label: "front desk" });
    const read = () => send("/console/session", { headers: { cookie: session.cookie } });
    const view = (await (await read()).json()) as Record<string, string>;
    expect(view).toEqual({
      merchantId: merchant.merchantId,
      merchantName: merchant.name,
      label: "front desk",
      readOnly: false,
      csrfToken: session.csrf,
      idleExpiresAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(Date.parse(view["expiresAt"]!) - Date.now()).toBeGreaterThan(7 * 24 * 3_600_000 - 60_000);
    expect(Date.parse(view["idleExpiresAt"]!) - Date.now()).toBeGreaterThan(12 * 3_600_000 - 60_000);
    expect((await send("/console/session")).status).toBe(401);

    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    await db.consoleSession.update({ where: { id: session.id }, data: { lastSeenAt: hoursAgo(11.9) } });
    expect((await read()).status).toBe(200);
    // That read was its use: it is idle from now on.
    expect((await db.consoleSession.findUniqueOrThrow({ where: { id: session.id } })).lastSeenAt.getTime()).toBeGreaterThan(
      hoursAgo(0.1).getTime(),
    );
    await db.consoleSession.update({ where: { id: session.id }, data: { lastSeenAt: hoursAgo(12.1) } });
    expect((await read()).status).toBe(401);
    expect((await consoleCall(session, "ConsoleRequests", { first: 5 })).status).toBe(401);

    const busy = await signedIn(merchant);
    await db.consoleSession.update({ where: { id: busy.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await send("/console/session", { headers: { cookie: busy.cookie } })).status).toBe(401);

    const leaving = await signedIn(merchant);
    expect((await send("/console/sign-out", { method: "POST", headers: { cookie: leaving.cookie } })).status).toBe(403);
    const signOut = await send("/console/sign-out", { method: "POST", headers: { cookie: leaving.cookie, ...ORIGIN } });
    expect(signOut.status).toBe(200);
    expect(signOut.headers.get("set-cookie")).toMatch(/^payreq_console=; Max-Age=0; Path=\//);
    expect((await send("/console/session", { headers: { cookie: leaving.cookie } })).status).toBe(401);
    expect((await listConsoleSessions(operator, merchant.merchantId)).map((s) => s.id)).toEqual([]);
  });

  it("runs the console's persisted documents as its merchant, and acts as console:<label> in the activity trail", async () => {
    const [merchant, other] = await Promise.all([buildMerchant(), buildMerchant()]);
    const [mine, theirs] = await Promise.all([buildRequest({ merchant }), buildRequest({ merchant: other })]);
    const session = await signedIn(merchant, { label: "till 2" });

    const home = (await (await consoleCall(session, "ConsoleRequests", { first: 5 })).json()) as { data: any };
    expect(home.data.paymentRequests.edges.map((edge: any) => edge.node.id)).toEqual([mine.request.id]);

    const cancelled = (await (
      await consoleCall(session, "ConsoleRequestCancel", { input: { requestId: mine.request.id } })
    ).json()) as {
      data: any;
    };
    expect(cancelled.data.requestCancel).toEqual({ __typename: "PaymentRequest", id: mine.request.id, status: "CANCELLED" });
    const activity = await db.activity.findFirstOrThrow({ where: { requestId: mine.request.id, action: "request.cancelled" } });
    expect(activity.actor).toBe("console:till 2");

    // Another merchant's request is not there for it.
    const elsewhere = (await (
      await consoleCall(session, "ConsoleRequestCancel", { input: { requestId: theirs.request.id } })
    ).json()) as {
      data: any;
    };
    expect(elsewhere.data.requestCancel).toMatchObject({ code: "REQUEST_NOT_FOUND" });
    expect((await db.paymentRequest.findUniqueOrThrow({ where: { id: theirs.request.id } })).status).toBe("NEW");

    // Without a label it is named by its id's first 8 characters.
    const unlabelled = await signedIn(merchant);
    const next = await buildRequest({ merchant });
    await consoleCall(unlabelled, "ConsoleRequestCancel", { input: { requestId: next.request.id } });
    const named = await db.activity.findFirstOrThrow({ where: { requestId: next.request.id, action: "request.cancelled" } });
    expect(named.actor).toBe(`console:${unlabelled.id.slice(0, 8)}`);
  });

  it("is refused whole with 403 FORBIDDEN without its CSRF token, from another origin, or with any other document; changing nothing", async () => {
    const merchant = await buildMerchant();
    const { request } = await buildRequest({ merchant });
    const session = await signedIn(merchant);
    const cancel = { input: { requestId: request.id } };
    const refusals: [string, Response][] = [
      ["no CSRF token", await consoleCall(session, "ConsoleRequestCancel", cancel, { headers: { "x-console-csrf": "" } })],
      [
        "another session's CSRF token",
        await consoleCall(session, "ConsoleRequestCancel", cancel, { headers: { "x-console-csrf": "x".repeat(43) } }),
      ],
      ["no Origin", await consoleCall(session, "ConsoleRequestCancel", cancel, { headers: { origin: "" } })],
      [
        "another origin",
        await consoleCall(session, "ConsoleRequestCancel", cancel, { headers: { origin: "http://127.0.0.1:5000" } }),
      ],
      ["no document hash", await consoleCall(session, "ConsoleRequestCancel", cancel, { body: { extensions: {} } })],
      [
        "an unknown hash",
        await consoleCall(session, "ConsoleRequestCancel", cancel, {
          body: { extensions: { persistedQuery: { sha256Hash: "0".repeat(64) } } },
        }),
      ],
      [
        "a document of its own",
        await consoleCall(session, "Cancel", cancel, {
          body: {
            query: `mutation Cancel($input: RequestCancelInput!) { requestCancel(input: $input) { __typename } }`,
            extensions: {},
          },
        }),
      ],
      [
        "a persisted hash with another text",
        await consoleCall(session, "ConsoleRequestCancel", cancel, {
          body: { query: `mutation ConsoleRequestCancel { __typename }` },
        }),
      ],
    ];
    // A blank X-Api-Key is no key: the call is still the cookie's, and held to its rules.
    const ownDocument = {
      query: `mutation Cancel($input: RequestCancelInput!) { requestCancel(input: $input) { __typename } }`,
      extensions: {},
    };
    refusals.push(
      [
        "a blank X-Api-Key and a document of its own",
        await consoleCall(session, "Cancel", cancel, { headers: { "x-api-key": " " }, body: ownDocument }),
      ],
      [
        "the cookie written with a space before its =",
        await consoleCall(session, "Cancel", cancel, {
          headers: { cookie: session.cookie.replace("=", " =") },
          body: ownDocument,
        }),
      ],
    );
    for (const [what, answer] of refusals) {
      expect(answer.status, what).toBe(403);
      expect(await answer.json(), what).toEqual({ errors: [{ message: expect.any(String), extensions: { code: "FORBIDDEN" } }] });
    }
    // A GET or a form never authenticates by the cookie.
    const hash = documentHashes["ConsoleRequests"]!;
    const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } });
    const byGet = await send(`/graphql?${new URLSearchParams({ extensions })}`, {
      headers: { cookie: session.cookie, "x-console-csrf": session.csrf, ...ORIGIN },
    });
    const byForm = await send("/graphql", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: session.cookie,
        "x-console-csrf": session.csrf,
        ...ORIGIN,
      },
      body: new URLSearchParams({ extensions, variables: JSON.stringify(cancel) }).toString(),
    });
    const byGetWithBlankKey = await send(`/graphql?${new URLSearchParams({ extensions })}`, {
      headers: { cookie: session.cookie, "x-console-csrf": session.csrf, "x-api-key": "", ...ORIGIN },
    });
    for (const answer of [byGet, byForm, byGetWithBlankKey]) expect(answer.status).toBe(401);
    expect((await db.paymentRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("NEW");
    expect(consoleDocuments.get(hash)?.mutation).toBe(false);
  });

  it("that is read-only reads everything and changes nothing", async () => {
    const merchant = await buildMerchant();
    const { request } = await buildRequest({ merchant });
    const session = await signedIn(merchant, { readOnly: true });
    const home = (await (await consoleCall(session, "ConsoleRequests", { first: 5 })).json()) as { data: any };
    expect(home.data.paymentRequests.edges).toHaveLength(1);
    const refused = await consoleCall(session, "ConsoleRequestCancel", { input: { requestId: request.id } });
    expect(refused.status).toBe(403);
    const withBlankKey = await consoleCall(
      session,
      "ConsoleRequestCancel",
      { input: { requestId: request.id } },
      { headers: { "x-api-key": "" } },
    );
    expect(withBlankKey.status).toBe(403);
    expect(await refused.json()).toEqual({
      errors: [{ message: "A read-only console session changes nothing.", extensions: { code: "FORBIDDEN" } }],
    });
    expect((await db.paymentRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("NEW");
  });
});
