/**
 * Seeds the demo merchant for `npm start` and prints credentials to try the API with.
 * Keys are shown once and stored hashed, so every start issues fresh demo keys. Development only.
 */
import { randomUUID } from "node:crypto";
import { config } from "../src/config.js";
import { closeDatabase, db, openDatabase } from "../src/db.js";
import type { DomainContext } from "../src/domain/context.js";
import { createApiKey } from "../src/domain/keys/create.js";
import { createMerchant } from "../src/domain/merchants/create.js";
import { createWallet } from "../src/domain/wallets/create.js";
import { logger } from "../src/api-logger.js";

const DEMO_NAME = "Demo Merchant";
const ctx: DomainContext = {
  actor: { kind: "operator" },
  requestId: randomUUID(),
  logger: logger.child({ component: "seed" }, { level: "warn" }),
  now: () => new Date(),
};

openDatabase(config.db, ctx.logger);
const existing = await db.merchant.findFirst({ where: { name: DEMO_NAME }, orderBy: { createdAt: "asc" } });
const merchant = existing
  ? {
      merchantId: existing.id,
      apiKey: (await createApiKey(ctx, { kind: "MERCHANT", merchantId: existing.id, label: "demo" })).apiKey,
    }
  : await createMerchant(ctx, { name: DEMO_NAME, currency: "NZD" });
const payer = await createApiKey(ctx, { kind: "PAYER", label: "demo" });
const wallet = await createWallet(ctx, { currency: "NZD", balance: 100_000 });
await closeDatabase();

console.log(`
Demo merchant (development only; new keys are issued on every start)
  merchantId      ${merchant.merchantId}
  merchant key    ${merchant.apiKey}
  payer key       ${payer.apiKey}
  sandbox wallet  ${wallet.walletId}  (NZD 1000.00; pay at ${wallet.ledger} with it as the authorization)
  GraphiQL        http://localhost:${config.server.port}/graphql  (set the X-Api-Key header)
`);
