/**
 * Deliveries to webhook endpoints, measured as webhooks.ts measures a request's notifyUrl: a burst of
 * as many deliveries as its notification burst, timed until every one is DELIVERED in PostgreSQL
 * with its attempt recorded. A merchant of its own (so no other section's pays fan out) has four
 * endpoints on a loopback receiver, each subscribed to other event types, one of them disabled.
 *
 * A round makes its events through the API (pays, refunds and cancellations of requests made in
 * SQL) while the endpoints are disabled, so the domain writes each endpoint's deliveries HELD; the
 * burst is their release: the endpoints enabled through the domain, the held deliveries PENDING
 * again in one UPDATE and the worker woken, as the notification burst inserts its rows. The API's
 * own pace of making events is not what is measured. Afterwards every token is verified against
 * the API's JWKS, and each endpoint must have received exactly the events of its types
 * (endpoint-check.ts); anything else stops the bench.
 */
import { randomUUID } from "node:crypto";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { sql, type SqlBool } from "kysely";
import { closeDatabase, database, openDatabase } from "../src/db.js";
import type { DomainContext } from "../src/domain/context.js";
import { EVENT_TYPE_NAMES } from "../src/domain/events/types.js";
import { createMerchant } from "../src/domain/merchants/create.js";
import { createWebhookEndpoint, updateWebhookEndpoint } from "../src/domain/webhooks/endpoints.js";
import { WEBHOOK_CHANNEL } from "../src/domain/deliveries/outbox.js";
import { parseEnv, workerEnv } from "../src/env.js";
import { createLogger } from "../src/logger.js";
import { compiled } from "../src/sql/compiled.js";
import { fromRowJson, rowJson } from "../src/sql/rows.js";
import { payBody, refundBody, type Bench } from "./calls.js";
import { deliveryProblems, type EndpointPlan, type ExpectedEvent } from "./endpoint-check.js";
import { call } from "./load.js";
import { deliveredPerSecond, startLoopbackReceiver } from "./receiver.js";
import { seedRequests } from "./seed.js";

/** The merchant's endpoints: each receives only its types, the disabled one nothing. */
const ENDPOINTS: EndpointPlan[] = [
  { name: "payments", eventTypes: ["PAYMENT_COMPLETED"], enabled: true },
  { name: "money", eventTypes: ["PAYMENT_COMPLETED", "REFUND_COMPLETED"], enabled: true },
  { name: "cancellations", eventTypes: ["REQUEST_CANCELLED"], enabled: true },
  { name: "disabled", eventTypes: ["PAYMENT_COMPLETED", "REQUEST_EXPIRED"], enabled: false },
];

/** How many API calls make a round's events at once, and how long making them may take. */
const CALLS_AT_ONCE = 16;
const MAKING_DEADLINE_MS = 300_000;

/** A receiver on loopback that answers 200 at once and keeps each token under the endpoint its path names. */
async function startEndpointReceiver(names: string[]) {
  const tokens = new Map<string, string[]>(names.map((name) => [name, []]));
  const strays: string[] = [];
  const receiver = await startLoopbackReceiver((path, token) => {
    const list = tokens.get(path.slice(1));
    if (list) list.push(token);
    else strays.push(path);
  });
  return {
    ...receiver,
    urlOf: (name: string) => `${receiver.origin}/${name}`,
    tokens,
    strays,
    /** Forgets what came, for the next round. */
    clear: () => {
      for (const list of tokens.values()) list.length = 0;
      strays.length = 0;
    },
  };
}

type EndpointReceiver = Awaited<ReturnType<typeof startEndpointReceiver>>;

interface Setup {
  bench: Bench;
  merchantId: string;
  /** The merchant's key and JSON content type. */
  headers: Record<string, string>;
  operator: DomainContext;
  receiver: EndpointReceiver;
  /** The endpoints' ids, in ENDPOINTS' order. */
  endpointIds: string[];
}

/** A round's mix for `count` deliveries: a pay goes to two endpoints, a refund and a cancellation to one each. */
export function roundMix(count: number): { pays: number; refunds: number; cancels: number } {
  const pays = Math.round(count * 0.3);
  const refunds = Math.round(count * 0.2);
  return { pays, refunds, cancels: count - 2 * pays - refunds };
}

/** Runs the calls, CALLS_AT_ONCE at a time; any wrong answer, or the deadline, stops the bench. */
async function callAll(calls: { url: string; headers: Record<string, string>; body: string }[]): Promise<void> {
  const deadline = Date.now() + MAKING_DEADLINE_MS;
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      if (Date.now() > deadline)
        throw new Error(`bench: making ${calls.length} events took over ${MAKING_DEADLINE_MS / 1000} s (${next} calls made)`);
      const { url, headers, body } = calls[next++]!;
      await call(url, { method: "POST", headers, body });
    }
  };
  await Promise.all(Array.from({ length: CALLS_AT_ONCE }, worker));
}

/**
 * Makes the round's events through the API, interleaved: pays and cancellations of new requests,
 * refunds of paid purchases, all made in SQL beforehand. Returns the requests each acted on.
 */
async function makeEvents(setup: Setup, count: number) {
  const { bench, merchantId, headers } = setup;
  const { pays, refunds, cancels } = roundMix(count);
  const open = (await seedRequests(bench.sql, merchantId, pays + cancels, { paid: false })).requestIds;
  const bought = await seedRequests(bench.sql, merchantId, refunds, { paid: true });
  const paid = open.slice(0, pays);
  const cancelled = open.slice(pays);
  const api = `${bench.api}/api`;
  const calls = [];
  for (let i = 0; i < Math.max(pays, refunds, cancels); i++) {
    if (i < pays) calls.push({ url: `${api}/requests.pay`, headers: bench.payerHeaders, body: payBody(paid[i]!) });
    if (i < refunds) calls.push({ url: `${api}/transactions.refund`, headers, body: refundBody(bought.purchaseIds[i]!) });
    if (i < cancels) calls.push({ url: `${api}/requests.cancel`, headers, body: JSON.stringify({ requestId: cancelled[i]! }) });
  }
  const started = Date.now();
  await callAll(calls);
  console.log(
    `  (made ${pays} pays, ${refunds} refunds and ${cancels} cancellations through the API in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  // As seed.ts does: autovacuum catching up with these rows should not fall into the burst.
  await bench.sql.query(`VACUUM (ANALYZE) event, delivery, payment_request, "transaction", activity`);
  return { PAYMENT_COMPLETED: paid, REFUND_COMPLETED: bought.requestIds, REQUEST_CANCELLED: cancelled };
}

/** `column = ANY(ids)`. */
const among = (column: string, ids: readonly string[]) => sql<SqlBool>`${sql.ref(column)} = ANY(${ids}::uuid[])`;

/** The events the round's calls wrote: exactly one per call, of its type and on its request. */
async function roundEvents(setup: Setup, actedOn: Awaited<ReturnType<typeof makeEvents>>): Promise<ExpectedEvent[]> {
  const requestIds = Object.values(actedOn).flat();
  const rows = await database
    .selectFrom("event as ev")
    .select(rowJson("event", "ev").as("event"))
    .where("ev.merchantId", "=", setup.merchantId)
    .where(among("ev.requestId", requestIds))
    .execute();
  const made: ExpectedEvent[] = rows.map((row) => {
    const event = fromRowJson("event", row.event);
    if (event.type === "PING") throw new Error(`bench: a ping event ${event.id} on a request`);
    return { id: event.id, type: event.type, createdAt: event.createdAt, payload: event.payload };
  });
  for (const [type, ids] of Object.entries(actedOn)) {
    const got = made.filter((event) => event.type === type).length;
    if (got !== ids.length) throw new Error(`bench: ${ids.length} calls made ${got} ${type} events`);
  }
  if (made.length !== requestIds.length) throw new Error(`bench: ${requestIds.length} calls made ${made.length} events`);
  return made;
}

/** Checks that the domain wrote one HELD delivery of each event to each endpoint subscribed to its type. */
async function checkHeld(setup: Setup, made: ExpectedEvent[]): Promise<void> {
  const eventIds = made.map((event) => event.id);
  const rows = await database
    .selectFrom("delivery")
    .select([
      "endpointId",
      sql<number>`count(*)::int`.as("count"),
      sql<number>`(count(*) FILTER (WHERE state = 'HELD'))::int`.as("held"),
    ])
    .where(among("eventId", eventIds))
    .groupBy("endpointId")
    .execute();
  for (const [i, plan] of ENDPOINTS.entries()) {
    const expected = made.filter((event) => plan.eventTypes.includes(event.type)).length;
    const row = rows.find((r) => r.endpointId === setup.endpointIds[i]) ?? { count: 0, held: 0 };
    if (row.count !== expected || row.held !== expected)
      throw new Error(
        `bench: the endpoint '${plan.name}' has ${row.count} deliveries (${row.held} held) of the round's events, not ${expected} held`,
      );
  }
  const others = rows.filter((r) => r.endpointId === null || !setup.endpointIds.includes(r.endpointId));
  if (others.length) throw new Error(`bench: the round's events have deliveries elsewhere than the merchant's endpoints`);
}

/** The round's held deliveries to the endpoints, PENDING again; their ids. */
const releaseHeld = (endpointIds: readonly string[], eventIds: readonly string[]) =>
  database
    .updateTable("delivery")
    .set({ state: "PENDING", lastError: null, updatedAt: sql<Date>`(now() AT TIME ZONE 'UTC')` })
    .where(among("endpointId", endpointIds))
    .where(among("eventId", eventIds))
    .where("state", "=", sql.lit("HELD"))
    .returning("id")
    .execute();

/** How many of the deliveries are DELIVERED with their attempt recorded: polled during the burst, so compiled once. */
const DELIVERED = compiled<{ ids: readonly string[] }, { count: number }>((qb, param) =>
  qb
    .selectFrom("delivery as e")
    .select(sql<number>`count(*)::int`.as("count"))
    .where(among("e.id", param("ids")))
    .where("e.state", "=", sql.lit("DELIVERED"))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("webhookAttempt as a")
          .select(sql.lit(1).as("one"))
          .whereRef("a.deliveryId", "=", "e.id")
          .where("a.outcome", "=", sql.lit("DELIVERED")),
      ),
    ),
);

/** Enables or disables the endpoints that ENDPOINTS has enabled, through the domain. */
async function switchEndpoints(setup: Setup, enabled: boolean): Promise<void> {
  for (const [i, plan] of ENDPOINTS.entries())
    if (plan.enabled)
      await updateWebhookEndpoint(setup.operator, { endpointId: setup.endpointIds[i]!, enabled }, { allowPrivateNetworks: true });
}

/**
 * Releases the round's held deliveries to the enabled endpoints at once and times until each is
 * DELIVERED with its attempt recorded; deliveries a second.
 */
async function releaseAndTime(setup: Setup, made: ExpectedEvent[], count: number): Promise<number> {
  const { bench, receiver } = setup;
  await switchEndpoints(setup, true);
  const enabledIds = setup.endpointIds.filter((_, i) => ENDPOINTS[i]!.enabled);
  const started = Date.now();
  const arrivedBefore = receiver.arrived();
  const eventIds = made.map((event) => event.id);
  const released = (await releaseHeld(enabledIds, eventIds)).map((row) => row.id);
  await bench.sql.query("SELECT pg_notify($1, 'bench')", [WEBHOOK_CHANNEL]);
  if (released.length !== count) throw new Error(`bench: released ${released.length} held deliveries, expected ${count}`);
  const perSecond = await deliveredPerSecond({
    what: "endpoint deliveries",
    count,
    started,
    received: () => receiver.arrived() - arrivedBefore,
    recorded: async () => (await DELIVERED(database, { ids: released }))[0]!.count,
  });
  await switchEndpoints(setup, false);
  return perSecond;
}

/** Verifies every token the receiver got against the API's JWKS, then what each endpoint got against the events. */
async function verifyRound(setup: Setup, made: ExpectedEvent[]): Promise<void> {
  const { receiver } = setup;
  const jwks = createLocalJWKSet(await call<JSONWebKeySet>(`${setup.bench.api}/.well-known/jwks.json`));
  // The worker's issuer, as its settings read it (WEBHOOK_ISSUER, or its default).
  const issuer = parseEnv(workerEnv).WEBHOOK_ISSUER;
  const problems: string[] = receiver.strays.length
    ? [`deliveries to unknown paths: ${receiver.strays.slice(0, 3).join(", ")}`]
    : [];
  for (const plan of ENDPOINTS) {
    const verified = await Promise.allSettled(
      receiver.tokens
        .get(plan.name)!
        .map(async (token) => (await jwtVerify(token, jwks, { issuer, algorithms: ["ES256"] })).payload),
    );
    const refused = verified.filter((outcome) => outcome.status === "rejected");
    if (refused.length)
      problems.push(`'${plan.name}' received ${refused.length} tokens that do not verify (${String(refused[0]!.reason)})`);
    const claims = verified.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
    problems.push(...deliveryProblems(plan, made, claims).map((problem) => `'${plan.name}' received ${problem}`));
  }
  if (problems.length) throw new Error(`bench: wrong endpoint deliveries:\n  ${problems.join("\n  ")}`);
  receiver.clear();
}

/** One round of `count` endpoint deliveries: made, checked held, released and timed, verified. Deliveries a second. */
async function endpointRound(setup: Setup, count: number): Promise<number> {
  const made = await roundEvents(setup, await makeEvents(setup, count));
  await checkHeld(setup, made);
  const perSecond = await releaseAndTime(setup, made, count);
  await verifyRound(setup, made);
  return perSecond;
}

/** The endpoints' merchant and its four endpoints (created disabled; a round enables those meant to be). */
async function setUp(bench: Bench): Promise<Setup> {
  const operator: DomainContext = {
    actor: { kind: "operator" },
    requestId: randomUUID(),
    logger: createLogger({ level: "silent" }),
    now: () => new Date(),
  };
  const merchant = await createMerchant(operator, { name: "Bench Endpoints", currency: "NZD" });
  const receiver = await startEndpointReceiver(ENDPOINTS.map((plan) => plan.name));
  const endpointIds: string[] = [];
  for (const plan of ENDPOINTS) {
    const input = {
      merchantId: merchant.merchantId,
      url: receiver.urlOf(plan.name),
      eventTypes: plan.eventTypes,
      enabled: false,
    };
    endpointIds.push((await createWebhookEndpoint(operator, input, { allowPrivateNetworks: true })).id);
  }
  const headers = { "x-api-key": merchant.apiKey, "content-type": "application/json" };
  return { bench, merchantId: merchant.merchantId, headers, operator, receiver, endpointIds };
}

/** Describes the endpoints for the bench's output: `payments (payment.completed)`, … */
const described = () =>
  ENDPOINTS.map(
    (plan) =>
      `${plan.name} (${plan.eventTypes.map((type) => EVENT_TYPE_NAMES[type]).join(", ")}${plan.enabled ? "" : "; disabled"})`,
  ).join(", ");

/**
 * An unmeasured round of half as many deliveries (the worker has sent no endpoint's token yet),
 * then the measured one of `count`; the measured round's deliveries a second.
 */
export async function measureEndpointDeliveries(bench: Bench, databaseUrl: string, count: number): Promise<number> {
  openDatabase({ url: databaseUrl, poolSize: 2 }, createLogger({ level: "silent" }));
  let setup: Setup | undefined;
  try {
    setup = await setUp(bench);
    console.log(`  endpoints of one merchant: ${described()}`);
    await endpointRound(setup, Math.round(count / 2));
    return await endpointRound(setup, count);
  } finally {
    setup?.receiver.close();
    await closeDatabase();
  }
}
