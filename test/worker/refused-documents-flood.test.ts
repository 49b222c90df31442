import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { createInterface } from "node:readline";
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

const p95 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.ceil(samples.length * 0.95) - 1]!;

/**
 * A flooder of refused documents in a process of its own (test/worker/document-flooder.ts), so
 * that making and sending them takes nothing from this process's event loop, which times the
 * other tenant. `turn(during)` floods while `during` runs; `statuses()` counts every answer so far.
 */
function startFlooder(base: string, apiKey: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "test/worker/document-flooder.ts", base, apiKey], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  servers.push({ kill: () => child.kill("SIGKILL") });
  const messages: { underway?: boolean; statuses?: [number, number][] }[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => messages.push(JSON.parse(line) as (typeof messages)[number]));
  let statuses = new Map<number, number>();
  const next = async <K extends "underway" | "statuses">(kind: K, after: number, what: string) =>
    (await until(
      () => messages.slice(after).find((message) => message[kind] !== undefined),
      (found) => found !== undefined,
      30_000,
      what,
    ))!;
  return {
    async turn<T>(during: () => Promise<T>): Promise<T> {
      const from = messages.length;
      child.stdin.write("flood\n");
      try {
        // Under way, and (the first time) past the 20 documents the key's minute allows.
        await next("underway", from, "the flood to be under way");
        return await during();
      } finally {
        const pausedFrom = messages.length;
        child.stdin.write("pause\n");
        statuses = new Map((await next("statuses", pausedFrom, "the flooder to pause")).statuses);
      }
    },
    statuses: () => statuses,
  };
}

describe("a flood of refused GraphQL documents", () => {
  it("meets 429 once its key's minute is used up, and leaves another tenant's p95 within twice its idle figure", async () => {
    const api = await startApiProcess();
    servers.push(api);
    const flooding = await buildMerchant();
    await db.apiKey.update({ where: { prefix: keyPrefixOf(flooding.apiKey) }, data: { rateLimitPerMinute: 20 } });
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

    const flooder = startFlooder(api.base, flooding.apiKey);

    try {
      await measure(30); // warm-up: connections, caches, the JIT
      // Idle and flooded turns alternate, so that the machine's other load falls on both alike.
      const idle: number[] = [];
      const flooded: number[] = [];
      for (let round = 0; round < 6; round++) {
        idle.push(...(await measure(75)));
        flooded.push(...(await flooder.turn(() => measure(75))));
      }
      const statuses = flooder.statuses();
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
    }
  }, 180_000);
});
