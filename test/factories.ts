import { randomUUID } from "node:crypto";
import { db } from "./prisma.js";
import type { Actor, DomainContext } from "../src/domain/context.js";
import { keyPrefixOf } from "../src/domain/keys/api-key.js";
import { createApiKey } from "../src/domain/keys/create.js";
import { createMerchant } from "../src/domain/merchants/create.js";
import { createRequest } from "../src/domain/requests/create.js";
import type { CreateRequestInput } from "../src/domain/requests/schemas.js";
import { createWallet } from "../src/domain/wallets/create.js";
import { createWebhookEndpoint, type CreateEndpointInput } from "../src/domain/webhooks/endpoints.js";
import { logger } from "./api-parts.js";
import { until } from "./until.js";

export function contextFor(actor: Actor, now?: Date): DomainContext {
  return { actor, requestId: randomUUID(), logger, now: () => now ?? new Date() };
}

export const operator = contextFor({ kind: "operator" });
export const payer = contextFor({ kind: "payer", keyPrefix: "pk_test" });

/** A fresh merchant (own tenant) with the default sandbox configuration and its API key. */
export async function buildMerchant(currency = "NZD") {
  const merchant = await createMerchant(operator, { name: `Shop ${randomUUID().slice(0, 8)}`, currency });
  const ctx = contextFor({ kind: "merchant", merchantId: merchant.merchantId, keyPrefix: "mk_test" });
  return { ...merchant, ctx, at: (now: Date) => contextFor(ctx.actor, now) };
}

export type TestMerchant = Awaited<ReturnType<typeof buildMerchant>>;

/**
 * A fresh merchant whose key may spend `perMinute` calls (GraphQL: points) a minute, made with at
 * least 10 s of the current minute left: limits count in fixed one-minute windows, and a test that
 * spends the minute and then expects 429 must make its calls in one window.
 */
export async function buildLimitedMerchant(perMinute: number) {
  await until(
    () => Date.now() % 60_000,
    (intoMinute) => intoMinute <= 50_000,
    15_000,
    "a minute with at least 10 s left",
  );
  const merchant = await buildMerchant();
  await db.apiKey.update({ where: { prefix: keyPrefixOf(merchant.apiKey) }, data: { rateLimitPerMinute: perMinute } });
  return merchant;
}

export async function buildPayerKey() {
  return (await createApiKey(operator, { kind: "PAYER" })).apiKey;
}

export async function buildWallet(balance: number, currency = "NZD") {
  return createWallet(operator, { currency, balance });
}

/** A NZD request of a merchant (a fresh one unless given). */
export async function buildRequest(overrides: Partial<CreateRequestInput> & { merchant?: TestMerchant } = {}) {
  const { merchant = await buildMerchant(), ...input } = overrides;
  const request = await createRequest(merchant.ctx, { merchantId: merchant.merchantId, asset: "NZD", amount: 1000, ...input });
  return { merchant, request };
}

export async function walletBalance(walletId: string): Promise<bigint> {
  return (await db.sandboxWallet.findUniqueOrThrow({ where: { id: walletId } })).balance;
}

export async function outboxFor(requestId: string) {
  return db.delivery.findMany({ where: { requestId }, orderBy: { createdAt: "asc" } });
}

/**
 * A webhook endpoint of the merchant, for payments at a loopback port where nothing listens unless
 * given otherwise; loopback addresses allowed, as with WEBHOOK_ALLOW_PRIVATE_NETWORKS.
 */
export async function buildEndpoint(merchant: TestMerchant, input: Partial<CreateEndpointInput> = {}) {
  return createWebhookEndpoint(
    merchant.ctx,
    { url: "http://127.0.0.1:9/h", eventTypes: ["PAYMENT_COMPLETED"], ...input },
    { allowPrivateNetworks: true },
  );
}
