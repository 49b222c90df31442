import { built } from "../built.js";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { db } from "../../src/db.js";
import { authenticate } from "../../src/domain/keys/authenticate.js";
import { currentSigningKid } from "../../src/domain/webhooks/signing-keys.js";
import { expectCode } from "../expect-error.js";
import { holdingSigningKeys } from "../signing-key-lock.js";
import { ownDatabase, projectCopy } from "../start/project-copy.js";

const run = promisify(execFile);

/** Counts 1 once the current signing key is not the one current when this was called. */
function currentSigningKidChanged() {
  const before = currentSigningKid();
  return async () => Number((await currentSigningKid()) !== (await before));
}

/** Runs `npm run admin -- …` as an operator would, against the test database. */
async function admin(...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, [...built("src/cli/admin.ts"), ...args], { env: process.env });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
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
});
