import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { keyPrefixOf } from "../../src/domain/keys/api-key.js";
import { buildMerchant, buildRequest } from "../factories.js";
import { startApiProcess } from "../service-processes.js";
import { until } from "../until.js";

const servers: { kill: () => void }[] = [];
afterAll(() => servers.forEach((server) => server.kill()));

/** One call over a kept-alive connection of `agent`: its status. */
function send(agent: Agent, base: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<number>((resolve, reject) => {
    const call = request(`${base}${path}`, { agent, method: body === undefined ? "GET" : "POST", headers }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode!));
    });
    call.on("error", reject).end(body);
  });
}

/**
 * A flooder of refused documents in a process of its own (bench/floods/refused-documents.ts, which
 * the bench also runs to time another tenant under the flood). `turn(during)` floods while
 * `during` runs; `statuses()` counts every answer so far.
 */
function startFlooder(base: string, apiKey: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/floods/refused-documents.ts", base, apiKey], {
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
  // How much the flood slows the other tenant is a figure of `npm run bench` (tenant isolation), not a test's.
  it("meets 429 once its key's minute is used up, while another tenant's calls are all answered", async () => {
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
    const callInTurn = async (count: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < count; i++) statuses.push(await neighbourCalls[i % neighbourCalls.length]!());
      return statuses;
    };

    const flooder = startFlooder(api.base, flooding.apiKey);
    try {
      // Turns until the flood is well past the 40 documents two minutes could allow (two turns at least).
      const answered = () => [...flooder.statuses().values()].reduce((sum, n) => sum + n, 0);
      const neighbourStatuses: number[] = [];
      for (let round = 0; round < 2 || (answered() <= 60 && round < 10); round++)
        neighbourStatuses.push(...(await flooder.turn(() => callInTurn(60))));
      const statuses = flooder.statuses();
      const summary = `flood answers ${JSON.stringify([...statuses])}`;
      expect(answered(), summary).toBeGreaterThan(60);
      expect(neighbourStatuses, summary).toEqual(Array(neighbourStatuses.length).fill(200));
      // At most the key's 20 a minute were read (and refused for what they are, 20 more if a minute turned); the rest met 429.
      expect(statuses.get(200) ?? 0, summary).toBeLessThanOrEqual(40);
      expect(statuses.get(429) ?? 0, summary).toBeGreaterThan(0);
      expect(
        [...statuses.keys()].filter((status) => status !== 200 && status !== 429),
        summary,
      ).toEqual([]);
    } finally {
      neighbourAgent.destroy();
    }
  }, 120_000);
});
