/**
 * Tenant isolation: another tenant's p95 while one key floods the API, against that tenant's p95
 * with no flood, in alternating blocks so that the machine's other load falls on both alike. Three
 * floods, each from a process of its own (bench/floods/): GraphQL documents refused before they
 * run, 200 a second from a key limited to 20 a minute; one key holding its 20 subscription
 * streams while its requests change 10 times a second; and issue 35's operation, 20 aliases of
 * `paymentRequests(first: $n)` with n = 100 and lists under each node, two at a time from a key at
 * the default 200 a minute over 150 paid requests of its merchant.
 */
import { Agent, request } from "node:http";
import { keyPrefixOf } from "../src/domain/keys/api-key.js";
import { createBody, gqlInfo, type Bench } from "./calls.js";
import { isCorrect } from "./correct-answer.js";
import { call, waitUntil } from "./load.js";
import type { BenchOptions } from "./options.js";
import { admin, helperLines, startHelper } from "./processes.js";
import { percentile } from "./report.js";
import { seedRequests } from "./seed.js";

export interface Isolation {
  flood: "refused documents" | "subscriptions" | "alias/variable";
  idleP95: number;
  floodedP95: number;
  /** Flooded p95 over idle p95. */
  ratio: number;
  samples: number;
}

const BLOCK = 75;
/** The flooder's requests and its key's limit a minute, as measured (../shared/notes/measured-2026-11-26.md). */
const FLOODER_REQUESTS = 150;
const FLOODER_PER_MINUTE = 200;
const STREAMS = 20;
const CHANGES_PER_SECOND = 10;

/** The other tenant: a GraphQL read, a GraphQL list and a REST read in turn, each timed, each checked. */
async function neighbourOf(bench: Bench) {
  const { requestId } = await call<{ requestId: string }>(`${bench.api}/api/requests.create`, {
    method: "POST",
    headers: bench.headers,
    body: createBody(bench.merchantId),
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const send = (path: string, body?: string) =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const outgoing = request(
        `${bench.api}${path}`,
        { agent, method: body === undefined ? "GET" : "POST", headers: bench.headers, timeout: 10_000 },
        (answer) => {
          let text = "";
          answer.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
          answer.on("end", () => {
            if (isCorrect(answer.statusCode!, text, path)) resolve(performance.now() - started);
            else reject(new Error(`bench: the other tenant's ${path} answered ${answer.statusCode} ${text.slice(0, 300)}`));
          });
        },
      );
      outgoing.on("timeout", () => outgoing.destroy(new Error(`bench: the other tenant's ${path} took over 10 s`)));
      outgoing.on("error", reject).end(body);
    });
  const calls = [
    () => send("/graphql", gqlInfo(requestId)),
    () => send("/graphql", JSON.stringify({ query: "{ paymentRequests(first: 5) { edges { node { id status } } } }" })),
    () => send(`/api/requests.info?requestId=${requestId}`),
  ];
  return {
    async block(count = BLOCK) {
      const samples: number[] = [];
      for (let i = 0; i < count; i++) samples.push(await calls[i % calls.length]!());
      return samples;
    },
    close: () => agent.destroy(),
  };
}

type Neighbour = Awaited<ReturnType<typeof neighbourOf>>;

/** Idle and flooded blocks in turn; `flooded(block)` runs a block under the flood. */
async function alternate(
  flood: Isolation["flood"],
  rounds: number,
  neighbour: Neighbour,
  flooded: (block: () => Promise<number[]>) => Promise<number[]>,
): Promise<Isolation> {
  await neighbour.block(); // warm-up
  const idle: number[] = [];
  const loaded: number[] = [];
  for (let round = 0; round < rounds; round++) {
    idle.push(...(await neighbour.block()));
    loaded.push(...(await flooded(() => neighbour.block())));
  }
  const p95 = (samples: number[]) =>
    percentile(
      [...samples].sort((a, b) => a - b),
      95,
    );
  const [idleP95, floodedP95] = [p95(idle), p95(loaded)];
  return { flood, idleP95, floodedP95, ratio: floodedP95 / idleP95, samples: idle.length };
}

async function refusedDocuments(bench: Bench, env: NodeJS.ProcessEnv, rounds: number, neighbour: Neighbour) {
  const flooder = await admin(env, "merchant", "create", "--name", "Bench document flooder");
  await bench.sql.query("UPDATE api_key SET rate_limit_per_minute = 20 WHERE prefix = $1", [keyPrefixOf(flooder.apiKey!)]);
  const child = startHelper("bench/floods/refused-documents.ts", [bench.api, flooder.apiKey!], env);
  const lines = helperLines(child);
  try {
    const figures = await alternate("refused documents", rounds, neighbour, async (block) => {
      const from = lines.messages.length;
      child.stdin!.write("flood\n");
      await lines.next("underway", from, "the document flood to be under way");
      const samples = await block();
      const pausedFrom = lines.messages.length;
      child.stdin!.write("pause\n");
      await lines.next("statuses", pausedFrom, "the document flooder to pause");
      return samples;
    });
    const statuses = new Map(lines.messages.findLast((message) => message.statuses)!.statuses as [number, number][]);
    const unexpected = [...statuses.keys()].filter((status) => status !== 200 && status !== 429);
    if (!statuses.get(429) || unexpected.length)
      throw new Error(
        `bench: the refused documents were answered ${JSON.stringify([...statuses])}, expected 429 past the key's minute`,
      );
    return figures;
  } finally {
    child.kill("SIGKILL");
  }
}

async function aliasVariable(bench: Bench, env: NodeJS.ProcessEnv, rounds: number, neighbour: Neighbour) {
  const flooder = await admin(env, "merchant", "create", "--name", "Bench alias flooder");
  await seedRequests(bench.sql, flooder.merchantId!, FLOODER_REQUESTS, { paid: true });
  await bench.sql.query("UPDATE api_key SET rate_limit_per_minute = $2 WHERE prefix = $1", [
    keyPrefixOf(flooder.apiKey!),
    FLOODER_PER_MINUTE,
  ]);
  const child = startHelper("bench/floods/alias-variable.ts", [bench.api, flooder.apiKey!], env);
  const lines = helperLines(child);
  try {
    const figures = await alternate("alias/variable", rounds, neighbour, async (block) => {
      const from = lines.messages.length;
      child.stdin!.write("flood\n");
      await lines.next("underway", from, "the alias flood to be under way");
      const samples = await block();
      const pausedFrom = lines.messages.length;
      child.stdin!.write("pause\n");
      await lines.next("statuses", pausedFrom, "the alias flooder to pause");
      return samples;
    });
    // Run (200), refused for its cost (400) or past the key's minute (429): anything else is a fault.
    const statuses = lines.messages.findLast((message) => message.statuses)!.statuses as [number, number][];
    console.log(`  alias/variable flood answered ${statuses.map(([status, n]) => `${n} × ${status}`).join(", ")}`);
    if (statuses.some(([status]) => ![200, 400, 429].includes(status)))
      throw new Error(`bench: the alias flood was answered ${JSON.stringify(statuses)}, expected 200, 400 or 429`);
    return figures;
  } finally {
    child.kill("SIGKILL");
  }
}

async function subscriptions(bench: Bench, env: NodeJS.ProcessEnv, rounds: number, neighbour: Neighbour) {
  const flooder = await admin(env, "merchant", "create", "--name", "Bench stream flooder");
  const headers = { "x-api-key": flooder.apiKey!, "content-type": "application/json" };
  const child = startHelper("bench/floods/stream-holder.ts", [bench.api, flooder.apiKey!, String(STREAMS)], env);
  const lines = helperLines(child);
  const heardByAll = () => new Set(lines.messages.flatMap((message) => (message.heardByAll as string | undefined) ?? []));
  const create = () =>
    call<{ requestId: string }>(`${bench.api}/api/requests.create`, {
      method: "POST",
      headers,
      body: createBody(flooder.merchantId!),
    }).then(({ requestId }) => requestId);
  const cancel = (requestId: string) =>
    call(`${bench.api}/api/requests.cancel`, { method: "POST", headers, body: JSON.stringify({ requestId }) });
  try {
    const statuses = (await lines.next("statuses", 0, "the held streams to open")) as number[];
    if (statuses.some((status) => status !== 200)) throw new Error(`bench: the held streams answered ${statuses.join(", ")}`);
    // Streams listen once the API has subscribed in Redis: probe changes until one reaches them all.
    await waitUntil(
      () => "the held streams to hear a change",
      async () => {
        const probe = await create();
        await cancel(probe);
        await new Promise((resolve) => setTimeout(resolve, 200));
        return heardByAll().has(probe);
      },
      20_000,
      0,
    );
    const changed: string[] = [];
    return await alternate("subscriptions", rounds, neighbour, async (block) => {
      const spare = await Promise.all(Array.from({ length: 20 }, create));
      let stop = false;
      const flooding = (async () => {
        const started = performance.now();
        for (let n = 0; !stop; n++) {
          const requestId = spare.pop() ?? (await create());
          await cancel(requestId);
          changed.push(requestId);
          const wait = started + ((n + 1) * 1000) / CHANGES_PER_SECOND - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        }
      })();
      const before = changed.length;
      await waitUntil(
        () => "the change flood to start",
        () => changed.length > before,
        10_000,
        1,
      );
      const samples = await block().finally(() => (stop = true));
      await flooding;
      await waitUntil(
        () => `every held stream to hear all ${changed.length} changes`,
        () => changed.every((id) => heardByAll().has(id)),
        20_000,
        5,
      );
      return samples;
    });
  } finally {
    child.kill("SIGKILL");
  }
}

export async function measureIsolation(bench: Bench, env: NodeJS.ProcessEnv, options: BenchOptions): Promise<Isolation[]> {
  const rounds = options.quick ? 3 : 6;
  const neighbour = await neighbourOf(bench);
  try {
    const figures: Isolation[] = [];
    // Each as it is measured: a flood that stalls the run is then the one not printed.
    for (const measure of [refusedDocuments, subscriptions, aliasVariable]) {
      const { flood, idleP95, floodedP95, ratio, samples } = await measure(bench, env, rounds, neighbour);
      console.log(
        `  ${flood} flood: another tenant's p95 ${floodedP95.toFixed(1)} ms against ${idleP95.toFixed(1)} ms idle ` +
          `(${ratio.toFixed(2)}×, ${samples} calls each)`,
      );
      figures.push({ flood, idleP95, floodedP95, ratio, samples });
    }
    return figures;
  } finally {
    neighbour.close();
  }
}
