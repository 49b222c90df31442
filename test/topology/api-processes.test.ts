/**
 * Several API processes per host, run as the README's "Running several API and worker processes"
 * writes them: `API_PROCESSES=2 npm run start:prod`, with one API process killed under a steady load
 * of calls, and then API and worker processes started by hand. Each npm script runs as package.json
 * says, from the run's bundles (test/built.ts) in place of `dist/` or tsx's loader; the
 * ports the README names, or leaves at their defaults, are free ports here.
 */
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { get } from "node:http";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { reportedPort, spawnNode } from "../../scripts/node-process.js";
import { buildMerchant, buildRequest, type TestMerchant } from "../factories.js";
import { freePorts } from "../../scripts/engines/free-ports.js";
import { apiProcessesOf } from "../processes.js";
import { until } from "../until.js";
import { startReceiver } from "../worker/harness.js";

const root = resolve(import.meta.dirname, "../..");
const section = /\n## Running several API and worker processes\n([\s\S]*?)\n## /.exec(
  readFileSync(join(root, "README.md"), "utf8"),
)![1]!;
const [oneHost, byHand] = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, block]) => block!.trim().split("\n").map(parse));
const scripts = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

/** A line of the README's blocks: `NAME=value … npm run <script> [&]  # comment`. */
function parse(line: string) {
  const found = /^((?:[A-Z_]+=\S+\s+)*)npm run ([\w:]+)(\s+&)?\s*(#.*)?$/.exec(line);
  if (!found) throw new Error(`not a command this test can run: ${line}`);
  const env = Object.fromEntries(
    found[1]!
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((assignment) => assignment.split("=") as [string, string]),
  );
  return { line, env, script: found[2]! };
}

/** An npm script's node arguments (`exec node [--import tsx] <file>`), run from the run's bundles. */
function nodeArgs(script: string): string[] {
  const file = /^exec node (?:--import tsx )?(\S+)$/.exec(scripts[script] ?? "")?.[1];
  if (!file) throw new Error(`npm run ${script} is "${scripts[script]}", not a node program this test can run`);
  return [join(inject("build"), file.replace(/^dist\//, "").replace(/\.ts$/, ".js"))];
}

/**
 * A README line's settings with every port on a free port of loopback: those it names, and PORT and
 * METRICS_PORT at their defaults (4000, 9464) where it leaves them; a port named twice, or left at
 * its default twice, is the same free port both times.
 */
function freePortsFor(ports: Map<string, string>, free: number[]) {
  return (env: Record<string, string>) =>
    Object.fromEntries(
      Object.entries({ PORT: "4000", METRICS_PORT: "9464", ...env }).map(([name, value]) => {
        if (!name.endsWith("PORT")) return [name, value];
        if (!ports.has(value)) ports.set(value, String(free[ports.size]));
        return [name, ports.get(value)!];
      }),
    );
}

/** A process of a README command, its output kept for a failure to show. */
function run(command: ReturnType<typeof parse>, env: Record<string, string>) {
  const child = spawnNode(nodeArgs(command.script), {
    env: { ...process.env, LOG_LEVEL: "warn", ...command.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  started.push(child);
  return { child, output: () => output };
}
const started: ChildProcess[] = [];
afterAll(() => started.forEach((child) => child.kill("SIGKILL")));

/** GET /api/requests.info on a connection of its own, as a proxy's new connections come: the status, or the error. */
const info = (port: number, requestId: string, apiKey: string) =>
  new Promise<number | string>((resolve) => {
    const call = get(
      {
        host: "127.0.0.1",
        port,
        path: `/api/requests.info?requestId=${requestId}`,
        headers: { "x-api-key": apiKey },
        agent: false,
      },
      (answer) => {
        answer.resume();
        answer.once("end", () => resolve(answer.statusCode!));
        answer.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      },
    );
    call.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    call.setTimeout(5_000, () => call.destroy(new Error("no answer within 5 s")));
  });

/** `clients` loops of calls, each making the next when the last is answered, until `stop()`. */
function steadyLoad(call: () => Promise<number | string>, clients: number) {
  const tally = { answered: 0, failed: [] as string[] };
  let running = true;
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const outcome = await call();
      if (outcome === 200) tally.answered++;
      else tally.failed.push(String(outcome));
    }
  });
  return {
    tally,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return tally;
    },
  };
}

/** The calls the metrics port counts as answered by requests.info (status 200). */
async function infoCount(metricsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const line = /^payreq_http_requests_total\{route="requests\.info",method="GET",status="200"\} (\d+)$/m.exec(text);
  return Number(line?.[1] ?? 0);
}

describe(`one host: ${oneHost![0]!.line}`, () => {
  const CLIENTS = 4;
  let group: ReturnType<typeof run>;
  let port: number;
  let metricsPort: number;
  let merchant: TestMerchant;
  let requestId: string;

  beforeAll(async () => {
    expect(oneHost).toHaveLength(1);
    expect(oneHost![0]).toMatchObject({ env: { API_PROCESSES: "2" }, script: "start:prod" });
    const env = freePortsFor(new Map(), await freePorts(2))(oneHost![0]!.env);
    [port, metricsPort] = [Number(env["PORT"]), Number(env["METRICS_PORT"])];
    group = run({ ...oneHost![0]!, env }, { QUEUE_PREFIX: `test-${randomUUID()}` });
    const built = await buildRequest();
    [merchant, requestId] = [built.merchant, built.request.id];
    await reportedPort(group.child, "npm run start:prod", 60_000).catch((err: Error) => {
      throw new Error(`${err.message}:\n${group.output()}`);
    });
  });

  it("runs two API processes on one port; one killed under load is started again while the other answers, and the metrics port sums them", async () => {
    const apis = apiProcessesOf(group.child.pid!);
    expect(apis, group.output()).toHaveLength(2);
    const load = steadyLoad(() => info(port, requestId, merchant.apiKey), CLIENTS);
    await until(
      () => load.tally.answered,
      (answered) => answered >= 100,
      20_000,
      "100 calls answered",
    );

    /** Kills `pid` under the load, and waits until the supervisor says its successor answers. */
    const killAndAwaitRestart = async (pid: number) => {
      // Scraped just before: a killed process's counts stay in the sum as of the last scrape.
      const answeredBeforeScrape = load.tally.answered;
      await infoCount(metricsPort);
      const answeredAtKill = load.tally.answered;
      process.kill(pid, "SIGKILL");
      const restarts = [...group.output().matchAll(/answers again \(pid (\d+)\), ([\d.]+) s after it stopped/g)].length;
      const back = await until(
        () => [...group.output().matchAll(/answers again \(pid (\d+)\), ([\d.]+) s after it stopped/g)],
        (lines) => lines.length > restarts,
        30_000,
        () => `a new API process after pid ${pid} was killed:\n${group.output()}`,
      );
      const [, successor, seconds] = back.at(-1)!;
      return {
        successor: Number(successor),
        restartSeconds: Number(seconds),
        answeredWhileDown: load.tally.answered - answeredAtKill,
        mayBeUncounted: answeredAtKill - answeredBeforeScrape,
      };
    };

    const first = await killAndAwaitRestart(apis[0]!);
    expect(group.output()).toMatch(/payreq: API process \d stopped \(SIGKILL\): starting it again in 1 s/);
    // The successor answers: while the other original process is down, it takes every call.
    const second = await killAndAwaitRestart(apis[1]!);
    const afterRestart = load.tally.answered;
    await until(
      () => load.tally.answered,
      (answered) => answered >= afterRestart + 100,
      20_000,
      "100 more calls",
    );
    const { answered, failed } = await load.stop();

    console.log(
      `API_PROCESSES=2 under ${CLIENTS} clients: ${answered} calls answered, ${failed.length} failed (${failed.join(", ")}); ` +
        `killed processes answered again after ${first.restartSeconds} s and ${second.restartSeconds} s, ` +
        `${first.answeredWhileDown} and ${second.answeredWhileDown} calls answered meanwhile`,
    );
    expect(first.answeredWhileDown).toBeGreaterThan(0);
    expect(second.answeredWhileDown).toBeGreaterThan(0);
    // Only calls in flight on a killed process fail, at most one per client each time: their
    // connection closes, or, for a connection the supervisor was just handing to it, is left
    // unanswered (Node's cluster keeps it open) until the caller gives up.
    expect(failed.length).toBeLessThanOrEqual(2 * CLIENTS);
    expect(
      failed.every((outcome) => ["ECONNRESET", "socket hang up", "no answer within 5 s"].includes(outcome)),
      failed.join(),
    ).toBe(true);

    const now = apiProcessesOf(group.child.pid!);
    expect(now.sort()).toEqual([first.successor, second.successor].sort());
    // Every call answered is in the sum, the killed processes' included, but for those they answered
    // between the last scrape and their end; none is counted twice.
    const counted = await infoCount(metricsPort);
    expect(counted).toBeLessThanOrEqual(answered + failed.length);
    expect(counted).toBeGreaterThanOrEqual(answered - first.mayBeUncounted - second.mayBeUncounted);
  }, 90_000);

  it("stops every process on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) => group.child.once("exit", resolve));
    const apis = apiProcessesOf(group.child.pid!);
    group.child.kill("SIGTERM");
    expect(await exited, group.output()).toBe(0);
    expect(apis.filter(isRunning)).toEqual([]);
  });
});

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("processes started by hand", () => {
  it("answer on the ports the README gives them, each serving its metrics, and the workers deliver", async () => {
    const ports = new Map<string, string>();
    const onFreePorts = freePortsFor(ports, await freePorts(byHand!.length * 2));
    // The test's own queues, and its receiver on loopback.
    const queues = { QUEUE_PREFIX: `test-${randomUUID()}`, WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" };
    const apis = byHand!.filter(({ script }) => script === "start:api");
    const workers = byHand!.filter(({ script }) => script === "start:worker");
    expect([apis.length, workers.length]).toEqual([2, 2]);
    const running = byHand!.map((command) => run({ ...command, env: onFreePorts(command.env) }, queues));
    const apiPorts = await Promise.all(
      running
        .filter((_, i) => byHand![i]!.script === "start:api")
        .map(({ child }) => reportedPort(child, "an API process", 60_000)),
    );
    expect(apiPorts.map(String)).toEqual(apis.map(({ env }) => onFreePorts(env)["PORT"]));

    const merchant = await buildMerchant();
    const receiver = await startReceiver();
    const call = (port: number, operation: string, params: Record<string, string>) =>
      fetch(`http://127.0.0.1:${port}/api/${operation}`, {
        method: "POST",
        headers: { "x-api-key": merchant.apiKey },
        body: new URLSearchParams(params),
      }).then(async (answer) => ({ status: answer.status, body: (await answer.json()) as { requestId: string } }));
    // Made through one API process, paid through the other.
    const created = await call(apiPorts[0]!, "requests.create", {
      merchantId: merchant.merchantId,
      asset: "NZD",
      amount: "300",
      notifyUrl: receiver.url,
    });
    expect(created.status).toBe(200);
    const paid = await call(apiPorts[1]!, "requests.pay", {
      requestId: created.body.requestId,
      ledger: "test.uplink",
      authorization: "ok",
    });
    expect(paid.status).toBe(200);
    for (const [i, { env }] of apis.entries()) {
      const metrics = await (await fetch(`http://127.0.0.1:${onFreePorts(env)["METRICS_PORT"]}/metrics`)).text();
      const operation = i === 0 ? "requests.create" : "requests.pay";
      expect(metrics).toMatch(
        new RegExp(
          `^payreq_http_requests_total\\{route="${operation.replace(".", "\\.")}",method="POST",status="200"\\} 1$`,
          "m",
        ),
      );
    }
    await until(
      () => receiver.received.length,
      (count) => count === 1,
      20_000,
      "the notification",
    );
    await receiver.close();
  }, 90_000);
});
