import { describe, expect, it } from "vitest";
import { createConsoleLink } from "../../src/domain/console/sessions.js";
import { documentHashes } from "../../src/http/console/documents.js";
import { keyPrefixOf } from "../../src/domain/keys/api-key.js";
import { buildLimitedMerchant, buildMerchant, buildPayerKey, contextFor, operator } from "../factories.js";
import { db } from "../prisma.js";
import { createTestApp } from "../test-app.js";

const PUBLIC_URL = "http://127.0.0.1:4997";
const app = createTestApp({}, { publicUrl: PUBLIC_URL });

type Answer = { data?: Record<string, any> | null; errors?: { message: string; extensions?: { code?: string } }[] };

async function withKey(apiKey: string, query: string, variables: Record<string, unknown> = {}) {
  const answer = await app.fetch(
    new Request(`${PUBLIC_URL}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return (await answer.json()) as Answer;
}

const CREATE = `mutation($label: String) { apiKeyCreate(input: { label: $label }) {
  __typename ... on ApiKeyCreated { key apiKey { prefix label revokedAt } } ... on Error { code message } } }`;
const REVOKE = `mutation($prefix: String!) { apiKeyRevoke(input: { prefix: $prefix }) {
  __typename ... on ApiKey { prefix revokedAt } ... on Error { code message } } }`;
const LIST = `{ apiKeys { prefix label createdAt lastUsedAt revokedAt } }`;
const ROLL = `mutation($prefix: String!, $overlap: Int!) { apiKeyRoll(input: { prefix: $prefix, overlapSeconds: $overlap }) {
  __typename ... on ApiKeyCreated { key apiKey { prefix label } } ... on Error { code message } } }`;

/** A console session of the merchant: its cookie and CSRF token. */
async function sessionOf(merchantId: string, readOnly = false, linkedBy = operator) {
  const { token } = await createConsoleLink(linkedBy, { merchantId, readOnly });
  const answer = await app.fetch(
    new Request(`${PUBLIC_URL}/console/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: PUBLIC_URL },
      body: JSON.stringify({ token }),
    }),
  );
  const { csrfToken } = (await answer.json()) as { csrfToken: string };
  return { cookie: answer.headers.get("set-cookie")!.split(";")[0]!, csrf: csrfToken };
}

async function asSession(
  session: { cookie: string; csrf: string },
  operationName: string,
  variables: Record<string, unknown> = {},
) {
  const answer = await app.fetch(
    new Request(`${PUBLIC_URL}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: session.cookie, "x-console-csrf": session.csrf, origin: PUBLIC_URL },
      body: JSON.stringify({
        operationName,
        variables,
        extensions: { persistedQuery: { version: 1, sha256Hash: documentHashes[operationName] } },
      }),
    }),
  );
  return { status: answer.status, ...((await answer.json()) as Answer) };
}

describe("merchant keys through GraphQL", () => {
  it("a merchant key makes a key shown once, lists its merchant's keys without secrets, and revokes one: the next call is refused", async () => {
    const [merchant, other] = await Promise.all([buildMerchant(), buildMerchant()]);
    const made = (await withKey(merchant.apiKey, CREATE, { label: "till 3" })).data!["apiKeyCreate"];
    expect(made).toMatchObject({ __typename: "ApiKeyCreated", apiKey: { label: "till 3", revokedAt: null } });
    expect(made.key).toMatch(new RegExp(`^${made.apiKey.prefix}_[\\w-]{43}$`));
    expect((await withKey(made.key, `{ apiKeys { prefix } }`)).data!["apiKeys"]).toHaveLength(2);

    const listed = (await withKey(merchant.apiKey, LIST)).data!["apiKeys"] as Record<string, unknown>[];
    expect(listed.map((key) => key["prefix"]).sort()).toEqual(
      [made.apiKey.prefix, merchant.apiKey.split("_").slice(0, 2).join("_")].sort(),
    );
    // The secret is what follows the prefix: it may hold "_" itself.
    expect(JSON.stringify(listed)).not.toContain(made.key.slice(made.apiKey.prefix.length + 1));
    // Another merchant's key is no key of this one's.
    const stolen = (await withKey(other.apiKey, REVOKE, { prefix: made.apiKey.prefix })).data!["apiKeyRevoke"];
    expect(stolen).toMatchObject({ __typename: "ValidationError", code: "BAD_REQUEST" });
    expect((await withKey(made.key, `{ apiKeys { prefix } }`)).errors).toBeUndefined();

    const revoked = (await withKey(merchant.apiKey, REVOKE, { prefix: made.apiKey.prefix })).data!["apiKeyRevoke"];
    expect(revoked).toMatchObject({ __typename: "ApiKey", prefix: made.apiKey.prefix, revokedAt: expect.any(String) });
    expect((await withKey(made.key, `{ apiKeys { prefix } }`)).errors?.[0]?.extensions?.code).toBe("KEY_NOT_AUTHORIZED");
  });

  it("rolls a key: the new one works at once, the old one until its overlap ends, or not at all without one", async () => {
    const merchant = await buildMerchant();
    const made = (await withKey(merchant.apiKey, CREATE, { label: "till" })).data!["apiKeyCreate"];
    const overlapping = (await withKey(merchant.apiKey, ROLL, { prefix: made.apiKey.prefix, overlap: 3600 })).data!["apiKeyRoll"];
    expect(overlapping).toMatchObject({ __typename: "ApiKeyCreated", apiKey: { label: "till" } });
    const old = await db.apiKey.findUniqueOrThrow({ where: { prefix: made.apiKey.prefix } });
    expect(old.revokedAt!.getTime() - Date.now()).toBeGreaterThan(3_500_000);
    // Both work during the overlap.
    expect((await withKey(made.key, LIST)).errors).toBeUndefined();
    expect((await withKey(overlapping.key, LIST)).errors).toBeUndefined();

    // Rolled again without an overlap, the key is refused at once; its successor works.
    const now = (await withKey(merchant.apiKey, ROLL, { prefix: overlapping.apiKey.prefix, overlap: 0 })).data!["apiKeyRoll"];
    expect((await withKey(overlapping.key, LIST)).errors?.[0]?.extensions?.code).toBe("KEY_NOT_AUTHORIZED");
    expect((await withKey(now.key, LIST)).errors).toBeUndefined();
    // A key rolled to end later can be revoked now.
    expect((await withKey(merchant.apiKey, REVOKE, { prefix: made.apiKey.prefix })).data!["apiKeyRevoke"]).toMatchObject({
      __typename: "ApiKey",
    });
    expect((await withKey(made.key, LIST)).errors?.[0]?.extensions?.code).toBe("KEY_NOT_AUTHORIZED");

    // Another merchant's key, a revoked one, an overlap out of bounds, a payer key: refused.
    const other = await buildMerchant();
    for (const [key, variables, code] of [
      [other.apiKey, { prefix: now.apiKey.prefix, overlap: 0 }, "BAD_REQUEST"],
      [merchant.apiKey, { prefix: overlapping.apiKey.prefix, overlap: 0 }, "BAD_REQUEST"],
      [merchant.apiKey, { prefix: now.apiKey.prefix, overlap: 604_801 }, "BAD_REQUEST"],
      [merchant.apiKey, { prefix: now.apiKey.prefix, overlap: -1 }, "BAD_REQUEST"],
      [await buildPayerKey(), { prefix: now.apiKey.prefix, overlap: 0 }, "FORBIDDEN"],
    ] as const)
      expect((await withKey(key, ROLL, variables)).data!["apiKeyRoll"], JSON.stringify(variables)).toMatchObject({ code });
    expect((await withKey(now.key, LIST)).errors).toBeUndefined();
  });

  it("never makes a key with more rights than the caller's: a limited key's keys have its limit; a payer key makes none", async () => {
    const limited = await buildLimitedMerchant(37);
    const made = (await withKey(limited.apiKey, CREATE, {})).data!["apiKeyCreate"];
    const stored = await db.apiKey.findUniqueOrThrow({ where: { prefix: made.apiKey.prefix } });
    expect(stored).toMatchObject({ kind: "MERCHANT", merchantId: limited.merchantId, rateLimitPerMinute: 37 });

    // Through a console session its key linked: the session spends at most its limit, and so do its keys.
    const linker = contextFor({ kind: "merchant", merchantId: limited.merchantId, keyPrefix: keyPrefixOf(limited.apiKey) });
    const session = await sessionOf(limited.merchantId, false, linker);
    const viaSession = (await asSession(session, "ConsoleApiKeyCreate", { input: {} })).data!["apiKeyCreate"];
    const storedViaSession = await db.apiKey.findUniqueOrThrow({ where: { prefix: viaSession.apiKey.prefix } });
    expect(storedViaSession.rateLimitPerMinute).toBe(37);
    expect(await db.consoleSession.findFirstOrThrow({ where: { merchantId: limited.merchantId } })).toMatchObject({
      rateLimitPerMinute: 37,
    });

    // Labelled so that this test counts its own keys only: other files make keys in this database meanwhile.
    const payerKey = await buildPayerKey();
    const label = `asked for by a payer ${crypto.randomUUID()}`;
    expect((await withKey(payerKey, CREATE, { label })).data!["apiKeyCreate"]).toMatchObject({ code: "FORBIDDEN" });
    expect((await withKey(payerKey, `{ apiKeys { prefix } }`)).errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(await db.apiKey.count({ where: { label } })).toBe(0);
  });

  it("a console session makes and revokes its merchant's keys; a read-only one lists them and changes nothing", async () => {
    const merchant = await buildMerchant();
    const session = await sessionOf(merchant.merchantId);
    const made = await asSession(session, "ConsoleApiKeyCreate", { input: { label: "from the console" } });
    expect(made.data!["apiKeyCreate"]).toMatchObject({ __typename: "ApiKeyCreated", apiKey: { label: "from the console" } });
    const prefix = made.data!["apiKeyCreate"].apiKey.prefix as string;
    const activity = await db.activity.findFirstOrThrow({
      where: { merchantId: merchant.merchantId, action: "key.created" },
      orderBy: { createdAt: "desc" },
    });
    expect(activity.actor).toMatch(/^console:/);

    const reader = await sessionOf(merchant.merchantId, true);
    const listed = await asSession(reader, "ConsoleApiKeys");
    expect((listed.data!["apiKeys"] as { prefix: string }[]).map((key) => key.prefix)).toContain(prefix);
    for (const [operation, variables] of [
      ["ConsoleApiKeyCreate", { input: {} }],
      ["ConsoleApiKeyRevoke", { input: { prefix } }],
    ] as const) {
      const refused = await asSession(reader, operation, variables);
      expect(refused.status).toBe(403);
      expect(refused.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    }
    expect((await db.apiKey.findUniqueOrThrow({ where: { prefix } })).revokedAt).toBeNull();
    const revoked = await asSession(session, "ConsoleApiKeyRevoke", { input: { prefix } });
    expect(revoked.data!["apiKeyRevoke"]).toMatchObject({ __typename: "ApiKey", prefix, revokedAt: expect.any(String) });
  });
});
