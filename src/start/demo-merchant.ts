/**
 * The demo merchant `npm start` prints credentials for. Keys are shown once and stored hashed, so
 * every start issues fresh demo keys for the same merchant. Development only.
 */
import { randomUUID } from "node:crypto";
import { closeDatabase, db, openDatabase } from "../db.js";
import type { DomainContext } from "../domain/context.js";
import { createApiKey } from "../domain/keys/create.js";
import { createMerchant } from "../domain/merchants/create.js";
import { createWallet } from "../domain/wallets/create.js";
import { createLogger } from "../logger.js";

const DEMO_NAME = "Demo Merchant";

export interface DemoCredentials {
  merchantId: string;
  merchantKey: string;
  payerKey: string;
  walletId: string;
  walletLedger: string;
}

export async function seedDemoMerchant(databaseUrl: string): Promise<DemoCredentials> {
  const ctx: DomainContext = {
    actor: { kind: "operator" },
    requestId: randomUUID(),
    logger: createLogger({ level: "warn" }, "start"),
    now: () => new Date(),
  };
  openDatabase({ url: databaseUrl, poolSize: 2 }, ctx.logger);
  try {
    const existing = await db.merchant.findFirst({ where: { name: DEMO_NAME }, orderBy: { createdAt: "asc" } });
    const merchant = existing
      ? {
          merchantId: existing.id,
          apiKey: (await createApiKey(ctx, { kind: "MERCHANT", merchantId: existing.id, label: "demo" })).apiKey,
        }
      : await createMerchant(ctx, { name: DEMO_NAME, currency: "NZD" });
    const payer = await createApiKey(ctx, { kind: "PAYER", label: "demo" });
    const wallet = await createWallet(ctx, { currency: "NZD", balance: 100_000 });
    return {
      merchantId: merchant.merchantId,
      merchantKey: merchant.apiKey,
      payerKey: payer.apiKey,
      walletId: wallet.walletId,
      walletLedger: wallet.ledger,
    };
  } finally {
    await closeDatabase();
  }
}

export const describeDemo = (demo: DemoCredentials, port: number) => `
Demo merchant (development only; new keys are issued on every start)
  merchantId      ${demo.merchantId}
  merchant key    ${demo.merchantKey}
  payer key       ${demo.payerKey}
  sandbox wallet  ${demo.walletId}  (NZD 1000.00; pay at ${demo.walletLedger} with it as the authorization)
  GraphiQL        http://localhost:${port}/graphql  (set the X-Api-Key header)
`;
