import { Agent, request } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "../../src/db.js";
import { keyPrefixOf } from "../../src/domain/keys/api-key.js";
import { buildMerchant, buildRequest } from "../factories.js";
import { startApiProcess, until } from "./harness.js";

const servers: { kill: () => void }[] = [];
afterAll(() => servers.forEach((server) => server.kill()));

/** One call over a kept-alive connection of `agent`: its status and how long the answer took. */
function send(agent: Agent, base: string, path: string, headers: Record<string, string>, body?: string) {
  const started = performance.now();
  return new Promise<{ status: number; ms: number }>((resolve, reject) => {
    const call = request(`${base}${path}`, { agent, method: body === undefined ? "GET" : "POST", headers }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode!, ms: performance.now() - started }));
    });
    call.on("error", reject).end(body);
  });
}

/** The flood: this many documents a second, at most this many at a time (a slow answer slows it). */
const FLOOD_PER_SECOND = 200;
const FLOOD_CONNECTIONS = 4;

const p95 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.ceil(samples.length * 0.95) - 1]!;

/**
 * Bodies of documents refused before they run, each as costly to read as the 64 KiB body allows,
 * and each different (a counter in a comment) so that no cache of parsed documents helps.
 */
function refusedDocuments() {
  const fill = (piece: (i: number) => string, bytes = 60_000) => {
    let text = "";
    for (let i = 0; text.length < bytes; i++) text += piece(i);
    return text;
  };
  const kinds = [
    // A syntax error at the very end: the whole document is read first.
    `{ ${fill((i) => `f${i}: paymentRequest(id: "${i}") { id status } `)} `,
    // Unknown fields, each one an error.
    `{ ${fill((i) => `nothing${i} `, 20_000)} }`,
    // Too deep, many times over.
    `{ ${fill((i) => `d${i}: transaction(id: "x") { ${"request { paidBy { ".repeat(6)} id ${"} } ".repeat(6)} } `)} }`,
    // Too costly.
    `{ ${fill((i) => `c${i}: paymentRequests(first: 100) { edges { node { id status payments { ledger } } } } `)} }`,
  ].map((query) => JSON.stringify(query).slice(1, -1));
  let n = 0;
  return () => `{"query":"# ${n++}\\n${kinds[n % kinds.length]}"}`;
}

describe("a flood of refused GraphQL documents", () => {
  it("meets 429 once its key's minute is used up, and leaves another tenant's p95 within twice its idle figure", async () => {
    const api = await startApiProcess();
    servers.push(api);
    const flooder = await buildMerchant();
    await db.apiKey.update({ where: { prefix: keyPrefixOf(flooder.apiKey) }, data: { rateLimitPerMinute: 20 } });
    const { merchant: neighbour, request: neighbourRequest } = await buildRequest();

    // The other tenant's calls, in turn: a GraphQL read, a GraphQL list, a REST read.
    const neighbourAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const key = { "x-api-key": neighbour.apiKey };
    const query = (text: string) => () =>
      send(neighbourAgent, api.base, "/graphql", { ...key, "content-type": "application/json" }, JSON.stringify({ query: text }));
    const neighbourCalls = [
      query(`{ paymentRequest(id: "${neighbourRequest.id}") { id status } }`),
      query("{ paymentRequests(first: 5) { edges { node { id } } } }"),
      () => send(neighbourAgent, api.base, `/api/requests.info?requestId=${neighbourRequest.id}`, key),
    ];
    const neighbourStatuses: number[] = [];
    /** `count` calls in turn (fewer if they take over 5 s in all: a starved tenant ends the test sooner). */
    const measure = async (count: number) => {
      const samples: number[] = [];
      const deadline = performance.now() + 5_000;
      for (let i = 0; i < count && performance.now() < deadline; i++) {
        const { status, ms } = await neighbourCalls[i % neighbourCalls.length]!();
        neighbourStatuses.push(status);
        samples.push(ms);
      }
      return samples;
    };

    const floodAgent = new Agent({ keepAlive: true, maxSockets: FLOOD_CONNECTIONS });
    const nextDocument = refusedDocuments();
    const statuses = new Map<number, number>();
    const answered = () => [...statuses.values()].reduce((sum, n) => sum + n, 0);
    const floodHeaders = { "content-type": "application/json", "x-api-key": flooder.apiKey };
    const flood = async <T>(during: () => Promise<T>): Promise<T> => {
      let inFlight = 0;
      const sending = new Set<Promise<void>>();
      const tick = setInterval(() => {
        for (let i = 0; i < FLOOD_PER_SECOND / 100 && inFlight < FLOOD_CONNECTIONS; i++) {
          inFlight++;
          const sent: Promise<void> = send(floodAgent, api.base, "/graphql", floodHeaders, nextDocument())
            .then(
              ({ status }) => status,
              () => 0, // the connection failed
            )
            .then((status) => {
              statuses.set(status, (statuses.get(status) ?? 0) + 1);
              inFlight--;
              sending.delete(sent);
            });
          sending.add(sent);
        }
      }, 10);
      try {
        return await during();
      } finally {
        clearInterval(tick);
        await Promise.all(sending);
      }
    };

    try {
      await measure(30); // warm-up: connections, caches, the JIT
      // Idle and flooded turns alternate, so that the machine's other load falls on both alike.
      const idle: number[] = [];
      const flooded: number[] = [];
      for (let round = 0; round < 6; round++) {
        idle.push(...(await measure(75)));
        flooded.push(
          ...(await flood(async () => {
            // Under way, and (the first time) past the 20 documents the key's minute allows.
            const before = answered();
            await until(answered, (n) => n >= Math.max(25, before + 8), 30_000, "the flood to be under way");
            return measure(75);
          })),
        );
      }
      const [idleP95, floodedP95] = [p95(idle), p95(flooded)];
      const summary = `idle p95 ${idleP95.toFixed(1)} ms, flooded p95 ${floodedP95.toFixed(1)} ms, flood answers ${JSON.stringify([...statuses])}`;
      expect(floodedP95, summary).toBeLessThanOrEqual(2 * idleP95);
      expect(
        neighbourStatuses.filter((status) => status !== 200),
        summary,
      ).toEqual([]);
      // At most the key's 20 a minute were read (and refused for what they are); the rest met 429.
      expect(statuses.get(200) ?? 0, summary).toBeLessThanOrEqual(40);
      expect(statuses.get(429), summary).toBeGreaterThan(100);
      expect(
        [...statuses.keys()].filter((status) => status !== 200 && status !== 429),
        summary,
      ).toEqual([]);
    } finally {
      neighbourAgent.destroy();
      floodAgent.destroy();
    }
  }, 180_000);
});
