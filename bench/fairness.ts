/**
 * Fairness of webhook delivery: one merchant misbehaving inside its limits while another pays and
 * waits for its notifications. The misbehaving merchant has the most endpoints it may have (16), all
 * at a loopback receiver that never answers, so each attempt there holds its slot for the whole
 * WEBHOOK_TIMEOUT. Phases, one after the other, each measuring the other merchant's pay →
 * notification (its requests.create and requests.pay through the API, one every PACE_MS):
 *
 * - idle: the other merchant alone;
 * - endpoints that hang: a burst of payments, each delivered to the 16 endpoints;
 * - a ping flood: test events to those endpoints, many at once, while the other merchant also pings
 *   an endpoint of its own (each ping must come back attempted);
 * - a recovery flood: every endpoint's failed deliveries sent again at once.
 *
 * The phases overlap what came before, as they would: nothing waits for the backlog to drain. Every
 * notification of the other merchant must arrive within DEADLINE_MS, or the bench stops. At the end
 * the misbehaving merchant's endpoints are deleted, with their deliveries.
 */
import type { DomainContext } from "../src/domain/context.js";
import { createMerchant } from "../src/domain/merchants/create.js";
import { createWebhookEndpoint } from "../src/domain/webhooks/endpoints.js";
import { closeDatabase, openDatabase } from "../src/db.js";
import { createLogger } from "../src/logger.js";
import { payBody, type Bench } from "./calls.js";
import { call } from "./load.js";
import type { BenchOptions } from "./options.js";
import { startHangingReceiver, startLoopbackReceiver } from "./receiver.js";
import { percentile } from "./report.js";
import { seedRequests } from "./seed.js";
import { notificationLatency, startWebhookReceiver } from "./webhooks.js";

/** The other merchant pays this often. */
const PACE_MS = 300;
/** How long one of its notifications may take before the bench stops. */
const DEADLINE_MS = 120_000;

export interface FairnessPhase {
  phase: string;
  /** The other merchant's pay → notification, in ms. */
  p50: number;
  p95: number;
  notifications: number;
  /** The ping flood's: the other merchant's pings attempted in their wait, and the slowest ping's answer (ms). */
  pings?: { attempted: number; sent: number; slowestMs: number };
  /** The recovery flood's: deliveries the recoveries queued. */
  recovered?: number;
}

/** The other merchant's notification p95 under each flood, at most twice its idle p95 and a second. */
export const fairnessGoal = (idleP95: number) => 2 * idleP95 + 1_000;

const GQL = {
  ping: `mutation($id: ID!) { webhookEndpointPing(id: $id) {
    ... on WebhookTestResult { delivered outcome } ... on Error { code } } }`,
  recover: `mutation($input: WebhookEndpointRecoverInput!) { webhookEndpointRecover(input: $input) {
    ... on WebhookRecovery { queued } ... on Error { code } } }`,
};

type GraphQLAnswer<T> = { data?: Record<string, T & { code?: string }>; errors?: unknown[] };

/** A GraphQL mutation with `headers`'s key; its one root field's answer, which must not be an Error. */
async function mutate<T>(bench: Bench, headers: Record<string, string>, query: string, variables: object): Promise<T> {
  const answer = await call<GraphQLAnswer<T>>(`${bench.api}/graphql`, {
    method: "POST",
    headers,
    body: JSON.stringify({ query, variables }),
    // A ping's answer waits for its attempt: up to WEBHOOK_TIMEOUT and 5 s.
    signal: AbortSignal.timeout(30_000),
  });
  const result = Object.values(answer.data ?? {})[0];
  if (!result || answer.errors || result.code)
    throw new Error(`bench: ${query.split("(")[0]} answered ${JSON.stringify(answer)}`);
  return result;
}

/** Runs `count` of `one` started PACE_MS apart, all at once after that; their results. */
async function paced<T>(count: number, one: () => Promise<T>): Promise<T[]> {
  const running: Promise<T>[] = [];
  for (let i = 0; i < count; i++) {
    running.push(one());
    await new Promise((resolve) => setTimeout(resolve, PACE_MS));
  }
  return Promise.all(running);
}

function summary(phase: string, latencies: number[]): FairnessPhase {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { phase, p50: percentile(sorted, 50), p95: percentile(sorted, 95), notifications: sorted.length };
}

interface Setup {
  bench: Bench;
  /** The other merchant, as a Bench whose merchant and key are its. */
  other: Bench;
  otherEndpoint: string;
  floodingHeaders: Record<string, string>;
  /** The misbehaving merchant's 16 endpoints. */
  endpoints: string[];
  /** The other merchant's notifications of one phase. */
  notifications: () => Promise<number[]>;
}

/** A burst of the misbehaving merchant's payments (requests made in SQL, paid through the API), each to every endpoint. */
async function paymentsFlood(setup: Setup, flooding: string, payments: number): Promise<FairnessPhase> {
  const { bench } = setup;
  const { requestIds } = await seedRequests(bench.sql, flooding, payments, { paid: false });
  await Promise.all(
    requestIds.map((id) =>
      call(`${bench.api}/api/requests.pay`, { method: "POST", headers: bench.payerHeaders, body: payBody(id) }),
    ),
  );
  return summary(`${payments * 16} deliveries to 16 endpoints that hang`, await setup.notifications());
}

/** Test events to every endpoint at once, while the other merchant pays and pings its own endpoint. */
async function pingFlood(setup: Setup, perEndpoint: number): Promise<FairnessPhase> {
  const { bench, other, endpoints } = setup;
  const flood = Promise.all(
    Array.from({ length: perEndpoint * 16 }, (_, i) => mutate(bench, setup.floodingHeaders, GQL.ping, { id: endpoints[i % 16] })),
  );
  const [latencies, pings] = await Promise.all([
    setup.notifications(),
    paced(5, async () => {
      const started = Date.now();
      const { delivered } = await mutate<{ delivered: boolean }>(bench, other.headers, GQL.ping, { id: setup.otherEndpoint });
      return { delivered, ms: Date.now() - started };
    }),
  ]);
  await flood;
  const attempted = pings.filter((ping) => ping.delivered).length;
  const slowestMs = Math.max(...pings.map((ping) => ping.ms));
  return {
    ...summary(`${perEndpoint * 16} pings to those endpoints`, latencies),
    pings: { attempted, sent: pings.length, slowestMs },
  };
}

/** Every endpoint's failed deliveries since `since` sent again at once (one recovery per endpoint). */
async function recoveryFlood(setup: Setup, since: Date): Promise<FairnessPhase> {
  const queued = await Promise.all(
    setup.endpoints.map((id) =>
      mutate<{ queued: number }>(setup.bench, setup.floodingHeaders, GQL.recover, { input: { id, since: since.toISOString() } }),
    ),
  );
  const recovered = queued.reduce((sum, { queued }) => sum + queued, 0);
  return { ...summary("a recovery of every endpoint's deliveries", await setup.notifications()), recovered };
}

function printPhases(phases: FairnessPhase[]) {
  const goal = fairnessGoal(phases[0]!.p95);
  for (const { phase, p50, p95, notifications, pings, recovered } of phases) {
    const extra = [
      pings && `its own pings ${pings.attempted} of ${pings.sent} attempted, slowest answer ${pings.slowestMs} ms`,
      recovered !== undefined && `${recovered} deliveries recovered`,
    ].filter(Boolean);
    console.log(
      `  ${phase.padEnd(45)} another merchant's pay → notification p50 ${String(p50).padStart(6)} ms, p95 ${String(p95).padStart(6)} ms ` +
        `(${notifications} arrived${phase === "idle" ? "" : `; goal p95 ≤ ${goal} ms`})${extra.length ? `; ${extra.join("; ")}` : ""}`,
    );
  }
}

/** The two merchants (made through the domain, as the operator's CLI does) and their endpoints. */
async function prepare(bench: Bench, receivers: { hanging: string; own: string }) {
  const operator: DomainContext = {
    actor: { kind: "operator" },
    requestId: "bench-fairness",
    logger: createLogger({ level: "silent" }),
    now: () => new Date(),
  };
  const rules = { allowPrivateNetworks: true };
  const flooding = await createMerchant(operator, { name: "Bench Flooding", currency: "NZD" });
  const endpoints: string[] = [];
  for (let i = 0; i < 16; i++) {
    const input = {
      merchantId: flooding.merchantId,
      url: `${receivers.hanging}/hang/${i}`,
      eventTypes: ["PAYMENT_COMPLETED" as const],
    };
    endpoints.push((await createWebhookEndpoint(operator, input, rules)).id);
  }
  const merchant = await createMerchant(operator, { name: "Bench Other", currency: "NZD" });
  const other: Bench = {
    ...bench,
    merchantId: merchant.merchantId,
    headers: { "x-api-key": merchant.apiKey, "content-type": "application/json" },
  };
  // The other merchant's own endpoint, for its pings only: no event of its is subscribed.
  const own = { merchantId: merchant.merchantId, url: `${receivers.own}/own`, eventTypes: ["REQUEST_CANCELLED" as const] };
  const setup = {
    bench,
    other,
    otherEndpoint: (await createWebhookEndpoint(operator, own, rules)).id,
    floodingHeaders: { "x-api-key": flooding.apiKey, "content-type": "application/json" },
    endpoints,
  };
  return { flooding: flooding.merchantId, setup };
}

export async function measureFairness(bench: Bench, databaseUrl: string, options: BenchOptions): Promise<FairnessPhase[]> {
  const scale = options.quick
    ? { payments: 60, notifications: 20, pingsPerEndpoint: 4 }
    : { payments: 200, notifications: 40, pingsPerEndpoint: 8 };
  openDatabase({ url: databaseUrl, poolSize: 2 }, createLogger({ level: "silent" }));
  const hanging = await startHangingReceiver();
  const receiver = await startWebhookReceiver();
  const own = await startLoopbackReceiver(() => undefined);
  let flooding: string | undefined;
  try {
    const prepared = await prepare(bench, { hanging: hanging.origin, own: own.origin });
    flooding = prepared.flooding;
    const setup: Setup = {
      ...prepared.setup,
      notifications: () => paced(scale.notifications, () => notificationLatency(prepared.setup.other, receiver, DEADLINE_MS)),
    };
    const phases = [summary("idle", await setup.notifications())];
    const floodStarted = new Date();
    phases.push(await paymentsFlood(setup, flooding, scale.payments));
    phases.push(await pingFlood(setup, scale.pingsPerEndpoint));
    phases.push(await recoveryFlood(setup, floodStarted));
    printPhases(phases);
    return phases;
  } finally {
    if (flooding) await bench.sql.query("DELETE FROM webhook_endpoint WHERE merchant_id = $1", [flooding]);
    hanging.close();
    receiver.close();
    own.close();
    await closeDatabase();
  }
}
