/**
 * The demo merchant `npm start` prints credentials for, made by a process of its own that the
 * supervisor runs beside the API and the worker (scripts/start/supervisor.ts), so that the supervisor never
 * loads Prisma: it sends `{ demo }` (or `{ problem }`) and exits. Keys are shown once and stored
 * hashed, so every start issues fresh demo keys for the same merchant, and revokes the ones earlier
 * starts printed, so that demo keys do not pile up. Development only.
 */
import { randomUUID } from "node:crypto";
import { closeDatabase, database, openDatabase, type DatabaseSettings } from "../../src/db.js";
import { createConsoleLink } from "../../src/domain/console/sessions.js";
import type { DomainContext } from "../../src/domain/context.js";
import { createApiKey } from "../../src/domain/keys/create.js";
import { revokeKeysLabelled } from "../../src/domain/keys/revoke.js";
import { createMerchant } from "../../src/domain/merchants/create.js";
import { createRequest } from "../../src/domain/requests/create.js";
import { createWallet } from "../../src/domain/wallets/create.js";
import { cliEnv, parseEnv, publicUrlOf } from "../../src/env.js";
import { createLogger } from "../../src/logger.js";
import { pageLinks } from "../../src/transport/links.js";

const DEMO_NAME = "Demo Merchant";
/** The label of the keys a start prints; the demo merchant's first key is its "initial" one. */
const DEMO_LABEL = "demo";

export interface DemoCredentials {
  merchantId: string;
  merchantKey: string;
  payerKey: string;
  walletId: string;
  walletLedger: string;
  /** A request of NZD 3.00 to pay on its page, open for a day. */
  request: { requestCode: string; shortCode: string };
  /** A one-time sign-in link to the merchant's console (15 minutes). */
  consoleLink: string;
}

async function seedDemoMerchant(settings: DatabaseSettings, publicUrl: string): Promise<DemoCredentials> {
  const ctx: DomainContext = {
    actor: { kind: "operator" },
    requestId: randomUUID(),
    logger: createLogger({ level: "warn" }, "start"),
    now: () => new Date(),
  };
  openDatabase(settings, ctx.logger);
  try {
    const existing = await database
      .selectFrom("merchant")
      .select("id")
      .where("name", "=", DEMO_NAME)
      .orderBy("createdAt")
      .limit(1)
      .executeTakeFirst();
    // The keys earlier starts printed stop working: the demo merchant's, and the demo payer keys.
    if (existing) await revokeKeysLabelled(ctx, { merchantId: existing.id, labels: [DEMO_LABEL, "initial"] });
    await revokeKeysLabelled(ctx, { merchantId: null, labels: [DEMO_LABEL] });
    const merchant = existing
      ? {
          merchantId: existing.id,
          apiKey: (await createApiKey(ctx, { kind: "MERCHANT", merchantId: existing.id, label: DEMO_LABEL })).apiKey,
        }
      : await createMerchant(ctx, { name: DEMO_NAME, currency: "NZD" });
    const payer = await createApiKey(ctx, { kind: "PAYER", label: DEMO_LABEL });
    const wallet = await createWallet(ctx, { currency: "NZD", balance: 100_000 });
    const asMerchant: DomainContext = { ...ctx, actor: { kind: "merchant", merchantId: merchant.merchantId, keyPrefix: "demo" } };
    const request = await createRequest(asMerchant, {
      merchantId: merchant.merchantId,
      asset: "NZD",
      amount: 300,
      description: "Demo: a flat white",
      paymentExpirySeconds: 86_399,
    });
    const { token } = await createConsoleLink(ctx, { merchantId: merchant.merchantId, label: DEMO_LABEL });
    return {
      consoleLink: pageLinks(publicUrl).consoleSignInUrl(token),
      merchantId: merchant.merchantId,
      merchantKey: merchant.apiKey,
      payerKey: payer.apiKey,
      walletId: wallet.walletId,
      walletLedger: wallet.ledger,
      request: { requestCode: request.requestCode, shortCode: request.shortCode },
    };
  } finally {
    await closeDatabase();
  }
}

const env = parseEnv(cliEnv);
const message = await seedDemoMerchant(
  {
    url: env.DATABASE_URL,
    poolSize: 2,
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
    applicationName: "payreq-demo",
  },
  publicUrlOf(env),
).then(
  (demo) => ({ demo }),
  (err: Error) => ({ problem: err.message }),
);
await new Promise<void>((resolve) => (process.send ? process.send(message, undefined, {}, () => resolve()) : resolve()));
