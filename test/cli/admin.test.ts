import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { authenticate } from "../../src/domain/keys/authenticate.js";
import { cancelRequest } from "../../src/domain/requests/cancel.js";
import { currentSigningKid } from "../../src/domain/webhooks/signing-keys.js";
import { expectCode } from "../expect-error.js";
import { buildEndpoint, buildMerchant, buildRequest } from "../factories.js";
import { holdingSigningKeys } from "../signing-key-lock.js";
import { ownDatabase, projectCopy } from "../start/project-copy.js";
import { adminWith } from "./run-admin.js";

const run = promisify(execFile);

/** Counts 1 once the current signing key is not the one current when this was called. */
function currentSigningKidChanged() {
  const before = currentSigningKid();
  // Awaited when the count is asked for: a failure is the test's then, not an unhandled rejection meanwhile.
  before.catch(() => {});
  return async () => Number((await currentSigningKid()) !== (await before));
}

/** Runs `npm run admin -- …` as an operator would, against the test database. */
async function admin(...args: string[]) {
  return adminWith({}, ...args);
}

describe("admin CLI", () => {
  it("merchant create --json prints a merchant id and a working merchant key", async () => {
    const { code, stdout } = await admin("merchant", "create", "--name", "Corner Cafe", "--currency", "aud", "--json");
    expect(code).toBe(0);
    const created = JSON.parse(stdout) as { merchantId: string; apiKey: string };
    expect(created.apiKey).toMatch(/^mk_[0-9a-f]{12}_/);
    expect((await authenticate(created.apiKey)).actor).toMatchObject({ kind: "merchant", merchantId: created.merchantId });
    const items = await db.configurationItem.findMany({ where: { merchantId: created.merchantId }, orderBy: { index: "asc" } });
    expect(items.map((i) => i.ledgerId)).toEqual(["test.uplink", "sandbox.aud.wallet"]);
    // The secret is never stored, only its hash.
    expect(await db.apiKey.count({ where: { hash: created.apiKey } })).toBe(0);
  });

  it("merchant redirect-urls sets the URLs a merchant's requests may send payers back to, and refuses a bad one", async () => {
    const { stdout } = await admin("merchant", "create", "--name", "Redirecting Cafe", "--json");
    const { merchantId } = JSON.parse(stdout) as { merchantId: string };
    const set = await admin(
      "merchant",
      "redirect-urls",
      "--merchant",
      merchantId,
      "https://shop.example/thanks",
      "https://shop.example/b",
      "--json",
    );
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({
      merchantId,
      allowedRedirectUrls: ["https://shop.example/thanks", "https://shop.example/b"],
    });
    const refused = await admin("merchant", "redirect-urls", "--merchant", merchantId, "javascript:alert(1)", "--json");
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr!)).toMatchObject({ error: "INVALID_REDIRECT_URL" });
    expect((await db.merchant.findUniqueOrThrow({ where: { id: merchantId } })).allowedRedirectUrls).toEqual([
      "https://shop.example/thanks",
      "https://shop.example/b",
    ]);
    // None given: none allowed.
    expect(
      JSON.parse((await admin("merchant", "redirect-urls", "--merchant", merchantId, "--json")).stdout).allowedRedirectUrls,
    ).toEqual([]);
  });

  it("stats rebuild sums a merchant's takings again, with rows written late; refuses an unknown or blank merchant", async () => {
    const { merchant, request } = await buildRequest();
    await db.paymentRequest.update({ where: { id: request.id }, data: { createdAt: new Date(Date.now() - 7_200_000) } });
    const rebuilt = await admin("stats", "rebuild", "--merchant", merchant.merchantId, "--json");
    expect(rebuilt.code).toBe(0);
    const answer = JSON.parse(rebuilt.stdout) as { merchantId: string; rolledUpThrough: string };
    expect(answer.merchantId).toBe(merchant.merchantId);
    expect(Date.now() - Date.parse(answer.rolledUpThrough)).toBeGreaterThanOrEqual(5 * 60_000);
    expect(await db.takingsBin.findMany({ where: { merchantId: merchant.merchantId }, select: { created: true } })).toEqual([
      { created: 1 },
    ]);
    const unknown = await admin("stats", "rebuild", "--merchant", randomUUID(), "--json");
    const named = await admin("stats", "rebuild", "--merchant", "cafe", "--json");
    const blank = await admin("stats", "rebuild", "--merchant", " ", "--json");
    for (const refused of [unknown, named])
      expect([refused.code, JSON.parse(refused.stderr!).error]).toEqual([1, "MERCHANT_NOT_FOUND"]);
    expect([blank.code, JSON.parse(blank.stderr!).error]).toEqual([1, "INVALID_MERCHANT_ID"]);
  });

  it("wallet create --json prints a wallet holding the balance", async () => {
    const { stdout } = await admin("wallet", "create", "--currency", "NZD", "--balance", "2500", "--json");
    const { walletId } = JSON.parse(stdout) as { walletId: string };
    expect(await db.sandboxWallet.findUniqueOrThrow({ where: { id: walletId } })).toMatchObject({
      currency: "NZD",
      balance: 2500n,
    });
  });

  it("creates payer keys and revokes keys by prefix", async () => {
    const { stdout } = await admin("key", "create", "--payer", "--json");
    const { apiKey, prefix } = JSON.parse(stdout) as { apiKey: string; prefix: string };
    expect((await authenticate(apiKey)).actor).toMatchObject({ kind: "payer" });
    expect((await admin("key", "revoke", prefix)).code).toBe(0);
    await expectCode(authenticate(apiKey), "KEY_NOT_AUTHORIZED");
  });

  it("creates a client configuration for a merchant", async () => {
    const merchant = JSON.parse((await admin("merchant", "create", "--name", "Till Co", "--json")).stdout) as {
      merchantId: string;
    };
    const { stdout } = await admin("client", "create", "--merchant", merchant.merchantId, "--json");
    const { clientId } = JSON.parse(stdout) as { clientId: string };
    expect(await db.configurationItem.count({ where: { clientId } })).toBe(2);
  });

  it("signing-key rotate publishes a new current key and keeps the old one in the JWKS", async () => {
    // No other file's rotation may land between these two and the read of the keys.
    const { first, second, keys } = await holdingSigningKeys(async () => {
      const first = JSON.parse((await admin("signing-key", "rotate", "--json")).stdout) as { kid: string };
      const second = JSON.parse((await admin("signing-key", "rotate", "--json")).stdout) as { kid: string };
      const keys = await db.signingKey.findMany({ where: { kid: { in: [first.kid, second.kid] } } });
      return { first, second, keys };
    });
    expect(second.kid).not.toBe(first.kid);
    expect(keys.find((k) => k.kid === second.kid)!.retiredAt).toBeNull();
    const old = keys.find((k) => k.kid === first.kid)!;
    expect(old.retiredAt).not.toBeNull();
    expect(old.publishedUntil!.getTime()).toBeGreaterThan(Date.now());
  });

  it("reports bad input with its CODE and a non-zero exit, and bad usage with exit 2", async () => {
    const bad = await admin("wallet", "create", "--currency", "NZD", "--balance=-5", "--json");
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr!)).toMatchObject({ error: "INVALID_AMOUNT" });
    expect((await admin("wallet", "create", "--balance", "-5")).code).toBe(2);
    const usage = await admin("merchant", "delete");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Usage: npm run admin");
  });

  it(
    "refuses any word or option a command does not read, with exit 2 and one line, and makes nothing",
    { timeout: 120_000 },
    async () => {
      const merchant = JSON.parse((await admin("merchant", "create", "--name", "Strict Co", "--json")).stdout) as {
        merchantId: string;
      };
      const key = JSON.parse((await admin("key", "create", "--payer", "--json")).stdout) as { prefix: string };
      const mark = `stray-${randomUUID()}`;
      const balance = String(9_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
      /** Each command as it works; what it would have made (counted); an option other commands read but it does not. */
      const commands: [string[], () => Promise<number>, string][] = [
        [["merchant", "create", "--name", mark], () => db.merchant.count({ where: { name: mark } }), "--payer"],
        [
          ["merchant", "redirect-urls", "--merchant", merchant.merchantId, "https://shop.example/"],
          async () => (await db.merchant.findUniqueOrThrow({ where: { id: merchant.merchantId } })).allowedRedirectUrls.length,
          "--payer",
        ],
        [
          ["client", "create", "--merchant", merchant.merchantId, "--name", mark],
          () => db.client.count({ where: { name: mark } }),
          "--payer",
        ],
        [["key", "create", "--payer", "--label", mark], () => db.apiKey.count({ where: { label: mark } }), "--json=x"],
        [
          ["key", "revoke", key.prefix],
          () => db.apiKey.count({ where: { prefix: key.prefix, revokedAt: { not: null } } }),
          "--payer",
        ],
        [
          ["wallet", "create", "--currency", "NZD", "--balance", balance],
          () => db.sandboxWallet.count({ where: { balance: BigInt(balance) } }),
          "--name=x",
        ],
        [["signing-key", "rotate"], currentSigningKidChanged(), "--merchant=x"],
        [
          [
            "endpoint",
            "create",
            "--merchant",
            merchant.merchantId,
            "--url",
            "http://127.0.0.1:9/hooks",
            "--types",
            "payment.completed",
            "--description",
            mark,
          ],
          () => db.webhookEndpoint.count({ where: { description: mark } }),
          "--payer",
        ],
      ];
      const refused = commands.flatMap(([args, , otherOption]) => [
        // `merchant redirect-urls` reads every word after its name as a URL.
        ...(args[1] === "redirect-urls" ? [] : [[...args, "EUR", "--json"]]),
        [...args, "--currency-code", "EUR", "--json"],
        [...args, otherOption, "--json"],
      ]);
      const answers = await holdingSigningKeys(() => Promise.all(refused.map((args) => admin(...args))));
      refused.forEach((args, i) => {
        const { code, stdout, stderr } = answers[i]!;
        const command = args.slice(0, 2).join(" ");
        expect({ args, code, stdout, stderr }).toEqual({
          args,
          code: 2,
          stdout: "",
          stderr: expect.stringMatching(
            new RegExp(
              `^${command}(: Unknown option '--[a-z-]+'|: Option '--json' does not take an argument| does not take "EUR")\\. Usage: npm run admin -- ${command}\\b[^\\n]*\\[--json\\]\\n$`,
            ),
          ),
        });
      });
      for (const [args, made] of commands) expect({ args, made: await made() }).toEqual({ args, made: 0 });
    },
  );

  it("prints nothing but its JSON on stdout when run through npm as the README shows (--silent)", async () => {
    const { stdout } = await run(
      "npm",
      ["run", "--silent", "admin", "--", "wallet", "create", "--currency", "NZD", "--balance", "5", "--json"],
      {
        env: process.env,
      },
    );
    const { walletId } = JSON.parse(stdout) as { walletId: string };
    expect(await db.sandboxWallet.findUniqueOrThrow({ where: { id: walletId } })).toMatchObject({ balance: 5n });
  });
});

/** The `key: value` lines the CLI prints without --json, as an object. */
function fromLines(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .trimEnd()
      .split("\n")
      .map((line) => [line.slice(0, line.indexOf(": ")), line.slice(line.indexOf(": ") + 2)]),
  );
}

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
/** On loopback, so registered with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true; never dialled: no worker runs on this database. */
const hookUrl = "http://127.0.0.1:9/payreq";
const privateNetworks = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" };

describe("admin CLI webhook endpoints", () => {
  it(
    "creates, lists, updates and deletes a merchant's endpoints, naming event types as tokens do, and refuses bad ones",
    { timeout: 90_000 },
    async () => {
      const { merchantId } = await buildMerchant();
      const create = (...args: string[]) => ["endpoint", "create", "--merchant", merchantId, ...args];
      const [first, second, privateRefused, unknownType, pingType, noType] = await Promise.all([
        adminWith(
          privateNetworks,
          ...create("--url", hookUrl, "--types", "payment.completed, refund.completed", "--description", "Till", "--json"),
        ),
        adminWith(privateNetworks, ...create("--url", "http://127.0.0.1:8080/hooks", "--types", "request.expired", "--disabled")),
        admin(...create("--url", "http://10.1.2.3/hooks", "--types", "request.expired", "--json")),
        adminWith(privateNetworks, ...create("--url", hookUrl, "--types", "payment.completed,payment.failed", "--json")),
        adminWith(privateNetworks, ...create("--url", hookUrl, "--types", "ping")),
        adminWith(privateNetworks, ...create("--url", hookUrl, "--types", " ", "--json")),
      ]);
      expect(first.code).toBe(0);
      const created = JSON.parse(first.stdout) as { id: string };
      expect(created).toEqual({
        id: UUID,
        merchantId,
        url: hookUrl,
        eventTypes: ["payment.completed", "refund.completed"],
        description: "Till",
        enabled: true,
        createdAt: ISO,
        updatedAt: ISO,
      });
      // A loopback URL is accepted where WEBHOOK_ALLOW_PRIVATE_NETWORKS allows it, and refused elsewhere.
      expect(second.code).toBe(0);
      const loopback = fromLines(second.stdout);
      expect(loopback).toEqual({
        id: UUID,
        merchantId,
        url: "http://127.0.0.1:8080/hooks",
        eventTypes: "request.expired",
        enabled: "false",
        disabledReason: "disabled when created",
        disabledAt: ISO,
        createdAt: ISO,
        updatedAt: ISO,
      });
      expect([privateRefused, unknownType, noType].map((answer) => [answer.code, JSON.parse(answer.stderr!).error])).toEqual([
        [1, "INVALID_ENDPOINT_URL"],
        [1, "INVALID_EVENT_TYPE"],
        [1, "INVALID_EVENT_TYPE"],
      ]);
      expect(JSON.parse(unknownType.stderr!).message).toContain('names "payment.failed", not one of payment.completed');
      // A test event is sent to an endpoint, never subscribed to.
      expect(pingType).toMatchObject({
        code: 1,
        stdout: "",
        stderr: expect.stringMatching(/^INVALID_EVENT_TYPE: --types names "ping", not one of /),
      });

      const usage = [
        create("--types", "payment.completed"),
        create("--url", hookUrl),
        create("--url", hookUrl, "--types", "payment.completed", "EUR"),
        ["endpoint", "list"],
        ["endpoint", "update", created.id, "--enable", "--disable"],
        ["endpoint", "update", created.id],
        ["endpoint", "update", created.id, "--url", " "],
        ["endpoint", "update", created.id, loopback.id!, "--enable"],
        ["endpoint", "update", created.id, "--merchant", merchantId, "--enable"],
        ["endpoint", "delete"],
        ["endpoint", "delete", created.id, "EUR"],
        ["endpoint", "ping", created.id, "--url", hookUrl],
        ["endpoint", "recover", created.id],
        ["endpoint", "recover", "--since", "2026-11-27T00:00:00Z"],
      ];
      const refused = await Promise.all(usage.map((args) => admin(...args, "--json")));
      refused.forEach((answer, i) =>
        expect({ args: usage[i], ...answer }).toEqual({
          args: usage[i],
          code: 2,
          stdout: "",
          stderr: expect.stringMatching(
            new RegExp(
              `^${usage[i]!.slice(0, 2).join(" ")}\\b[^\\n]*\\. Usage: npm run admin -- endpoint [^\\n]*\\[--json\\]\\n$`,
            ),
          ),
        }),
      );
      expect(refused.map((answer) => answer.stderr!.split(". Usage")[0])).toEqual([
        "endpoint create needs --url",
        "endpoint create needs --types",
        'endpoint create does not take "EUR"',
        "endpoint list needs --merchant",
        "endpoint update takes --enable or --disable, not both",
        "endpoint update takes at least one of --url, --types, --description, --enable, --disable",
        "endpoint update takes at least one of --url, --types, --description, --enable, --disable",
        `endpoint update does not take "${loopback.id}"`,
        "endpoint update: Unknown option '--merchant'",
        "endpoint delete takes ENDPOINT_ID",
        'endpoint delete does not take "EUR"',
        "endpoint ping: Unknown option '--url'",
        "endpoint recover needs --since",
        "endpoint recover takes ENDPOINT_ID --since TIME",
      ]);
      expect(await db.webhookEndpoint.count({ where: { merchantId } })).toBe(2);

      const [updated, privateUpdate, unknownUpdate, missing] = await Promise.all([
        adminWith(
          privateNetworks,
          "endpoint",
          "update",
          created.id,
          "--url",
          `${hookUrl}/v2`,
          "--types",
          "request.cancelled",
          "--description",
          " ",
          "--disable",
          "--json",
        ),
        admin("endpoint", "update", loopback.id!, "--url", "http://[::1]:8080/hooks", "--json"),
        admin("endpoint", "update", loopback.id!, "--types", "refund.completed,request.paid", "--json"),
        admin("endpoint", "update", randomUUID(), "--enable", "--json"),
      ]);
      expect(JSON.parse(updated.stdout)).toEqual({
        id: created.id,
        merchantId,
        url: `${hookUrl}/v2`,
        eventTypes: ["request.cancelled"],
        // Blank, as any optional text, is not given: the note stays.
        description: "Till",
        enabled: false,
        disabledReason: "disabled by an operator",
        disabledAt: ISO,
        createdAt: ISO,
        updatedAt: ISO,
      });
      expect([privateUpdate, unknownUpdate, missing].map((answer) => [answer.code, JSON.parse(answer.stderr!).error])).toEqual([
        [1, "INVALID_ENDPOINT_URL"],
        [1, "INVALID_EVENT_TYPE"],
        [1, "WEBHOOK_ENDPOINT_NOT_FOUND"],
      ]);

      const [listed, listedText, noneText] = await Promise.all([
        admin("endpoint", "list", "--merchant", merchantId, "--json"),
        admin("endpoint", "list", "--merchant", merchantId),
        admin("endpoint", "list", "--merchant", (await buildMerchant()).merchantId),
      ]);
      const { endpoints } = JSON.parse(listed.stdout) as { endpoints: { id: string }[] };
      // The refused updates changed nothing.
      expect(endpoints.find((endpoint) => endpoint.id === loopback.id)).toMatchObject({
        url: "http://127.0.0.1:8080/hooks",
        eventTypes: ["request.expired"],
      });
      expect(endpoints.map((endpoint) => endpoint.id).sort()).toEqual([created.id, loopback.id].sort());
      expect(listedText.stdout.trimEnd().split("\n\n").map(fromLines)).toEqual(
        endpoints.map((endpoint) => expect.objectContaining({ id: endpoint.id, merchantId })),
      );
      expect(noneText).toEqual({ code: 0, stdout: "no endpoints\n" });

      const deleted = await admin("endpoint", "delete", created.id);
      expect(deleted).toEqual({ code: 0, stdout: `id: ${created.id}\nurl: ${hookUrl}/v2\ndeleted: true\n` });
      const [again, after] = await Promise.all([
        admin("endpoint", "delete", created.id, "--json"),
        admin("endpoint", "list", "--merchant", merchantId, "--json"),
      ]);
      expect([again.code, JSON.parse(again.stderr!).error]).toEqual([1, "WEBHOOK_ENDPOINT_NOT_FOUND"]);
      expect((JSON.parse(after.stdout) as { endpoints: { id: string }[] }).endpoints.map((endpoint) => endpoint.id)).toEqual([
        loopback.id,
      ]);
    },
  );

  it("recovers what a disabled endpoint held, once a minute, and says a test event no worker sent was not attempted yet", async () => {
    const merchant = await buildMerchant();
    const endpoint = await buildEndpoint(merchant, { url: hookUrl, eventTypes: ["REQUEST_CANCELLED"] });
    const since = new Date(Date.now() - 60_000).toISOString();
    const { request } = await buildRequest({ merchant });
    await cancelRequest(merchant.ctx, { requestId: request.id });
    const deliveries = () => db.delivery.findMany({ where: { endpointId: endpoint.id, type: "REQUEST_CANCELLED" } });

    // No worker runs on this database: the test event waits WEBHOOK_TIMEOUT + 5 s for one, then says so.
    const [ping, disabled] = await Promise.all([
      adminWith({ WEBHOOK_TIMEOUT: "1ms" }, "endpoint", "ping", endpoint.id),
      admin("endpoint", "update", endpoint.id, "--disable"),
    ]);
    expect(ping.code).toBe(1);
    const pinged = fromLines(ping.stdout);
    expect(pinged).toEqual({
      deliveryId: UUID,
      delivered: "false",
      outcome: "not attempted yet",
      note: "no worker made its attempt within 5001 ms; a running worker still sends it once",
    });
    expect(await db.delivery.findUniqueOrThrow({ where: { id: pinged.deliveryId } })).toMatchObject({
      endpointId: endpoint.id,
      type: "PING",
      state: "PENDING",
      attempts: 0,
      attemptLimit: 1,
    });
    expect(fromLines(disabled.stdout)).toMatchObject({ enabled: "false" });
    expect((await deliveries()).map((row) => row.state)).toEqual(["HELD"]);

    const [whileDisabled, badSince, unknown] = await Promise.all([
      admin("endpoint", "recover", endpoint.id, "--since", since, "--json"),
      admin("endpoint", "recover", endpoint.id, "--since", "yesterday", "--json"),
      admin("endpoint", "recover", randomUUID(), "--since", since, "--json"),
    ]);
    expect([whileDisabled, badSince, unknown].map((answer) => [answer.code, JSON.parse(answer.stderr!).error])).toEqual([
      [1, "WEBHOOK_ENDPOINT_DISABLED"],
      [1, "BAD_REQUEST"],
      [1, "WEBHOOK_ENDPOINT_NOT_FOUND"],
    ]);

    expect((await admin("endpoint", "update", endpoint.id, "--enable")).code).toBe(0);
    // A blank --types, as any blank option, is not given: the types stay.
    const blankTypes = await admin("endpoint", "update", endpoint.id, "--types", " ", "--enable", "--json");
    expect([blankTypes.code, JSON.parse(blankTypes.stdout).eventTypes]).toEqual([0, ["request.cancelled"]]);
    // Enabling sends nothing by itself: what was held waits for a recovery.
    expect((await deliveries()).map((row) => row.state)).toEqual(["HELD"]);
    const recovered = await admin("endpoint", "recover", endpoint.id, "--since", since);
    expect(recovered).toEqual({ code: 0, stdout: `endpointId: ${endpoint.id}\nqueued: 1\n` });
    // Held before its first attempt, it goes on with its whole schedule.
    expect(await deliveries()).toEqual([expect.objectContaining({ state: "PENDING", attempts: 0, attemptLimit: null })]);

    const [json, text] = await Promise.all([
      admin("endpoint", "recover", endpoint.id, "--since", since, "--json"),
      admin("endpoint", "recover", endpoint.id, "--since", since),
    ]);
    expect(json.code).toBe(1);
    const limited = JSON.parse(json.stderr!) as { error: string; retryAfterSeconds: number };
    expect(limited).toMatchObject({ error: "RATE_LIMIT_EXCEEDED", retryAfterSeconds: expect.any(Number) });
    expect(limited.retryAfterSeconds).toBeGreaterThan(0);
    expect(limited.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(text).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^RATE_LIMIT_EXCEEDED: One recovery per endpoint a minute\b/),
    });
  });
});

describe("admin CLI settings", () => {
  it("works in the database .env names, unless DATABASE_URL is set in the environment", async () => {
    const database = await ownDatabase();
    const project = await projectCopy({ DATABASE_URL: database.url });
    try {
      const create = (env?: NodeJS.ProcessEnv) =>
        project.npm(["admin", "--", "merchant", "create", "--name", "Env Cafe", "--json"], env);
      const fromFile = JSON.parse((await create()).stdout) as { merchantId: string };
      expect(await database.query("SELECT id FROM merchant WHERE id = $1", [fromFile.merchantId])).toHaveLength(1);
      expect(await db.merchant.count({ where: { id: fromFile.merchantId } })).toBe(0);

      const fromEnvironment = JSON.parse((await create({ DATABASE_URL: process.env["DATABASE_URL"] })).stdout) as {
        merchantId: string;
      };
      expect(await db.merchant.count({ where: { id: fromEnvironment.merchantId } })).toBe(1);
      expect(await database.query("SELECT id FROM merchant WHERE id = $1", [fromEnvironment.merchantId])).toHaveLength(0);
    } finally {
      await project.remove();
      await database.drop();
    }
  });

  it("says in one line, with exit 1, that the database is unavailable when DATABASE_URL names one that does not exist", async () => {
    const url = new URL(process.env["DATABASE_URL"]!);
    const name = `payreq_missing_${randomBytes(6).toString("hex")}`;
    url.pathname = `/${name}`;
    const missing = { DATABASE_URL: url.toString() };
    const said = `The database is unavailable; try again later. (database "${name}" does not exist)`;
    const [text, json] = await Promise.all([
      adminWith(missing, "merchant", "create", "--name", "Nowhere Cafe"),
      adminWith(missing, "endpoint", "list", "--merchant", randomUUID(), "--json"),
    ]);
    expect(text).toEqual({ code: 1, stdout: "", stderr: `EXTERNAL_SERVICE_ERROR: ${said}\n` });
    expect(json).toEqual({
      code: 1,
      stdout: "",
      stderr: `${JSON.stringify({ error: "EXTERNAL_SERVICE_ERROR", message: said })}\n`,
    });
  });
});
