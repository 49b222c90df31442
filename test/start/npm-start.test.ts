/**
 * The service as an operator starts it: `npm start` on a new database, and the production build
 * (`dist/`, no tsx) started the way `npm run start:prod` does. Both are stopped with SIGTERM, as a
 * process manager would, and must leave nothing running.
 */
import { built } from "../built.js";
import { execFile, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { rotateSigningKey } from "../../src/domain/webhooks/key-files.js";
import { currentSigningKid } from "../../src/domain/webhooks/signing-keys.js";
import { bundleFolder } from "../../scripts/bundle-cache.js";
import { API_NODE_FLAGS, WORKER_NODE_FLAGS } from "../../scripts/start/entrypoints.js";
import { testDatabases } from "../../vitest.config.js";
import { fileEnv } from "../service-processes.js";
import { until } from "../until.js";
import { payAndAwaitNotification, startReceiver } from "../worker/harness.js";
import { startGroup, type Process } from "../start-group.js";

const run = promisify(execFile);

const readyAnswer = async (base: string) => (await fetch(`${base}/ready`)).status;

// Each test waits for start-up (up to 60 s, startGroup) and for the processes to stop (up to 30 s).
describe("npm start", { timeout: 120_000 }, () => {
  const newDatabase = `postgresql://postgres@127.0.0.1:5432/${testDatabases.workerPrefix}start_${randomUUID().slice(0, 8)}`;

  it("creates and migrates a new database, prints working demo keys, and SIGTERM stops API and worker", async () => {
    const group = await startGroup("npm", ["start"], { DATABASE_URL: newDatabase });
    const migrations = readdirSync("prisma/migrations", { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(group.output()).toContain(`payreq: applying ${migrations.length} migrations`);
    expect(await readyAnswer(group.base)).toBe(200);

    const keys = await until(
      () => /merchantId\s+(\S+)\n\s+merchant key\s+(mk_\S+)/.exec(group.output()),
      (found) => found !== null,
      20_000,
      "the demo merchant's keys",
    );
    const info = await fetch(`${group.base}/api/merchants.configurations.info?merchantId=${keys![1]}`, {
      headers: { "x-api-key": keys![2]! },
    });
    expect(info.status).toBe(200);
    // And the demo request's pay page, which opens at the address printed (on the API's own port here).
    const payUrl = /pay page\s+(http:\/\/localhost:\d+\/pay\/[0-9A-Z]{12})\s/.exec(group.output());
    expect(payUrl, group.output()).not.toBeNull();
    const page = await fetch(payUrl![1]!.replace("localhost", "127.0.0.1"));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("NZD 3.00");

    // The API and the worker run as bundled for the sources as they are (made once for them, the
    // suite's first run did it), with source maps beside them.
    const processes = group.processes();
    const running = processes.map((p) => p.command);
    const bundles = bundleFolder(resolve(import.meta.dirname, "../.."));
    expect(group.output()).not.toContain("payreq: bundled");

    // The supervisor, which runs as long as they do, is plain Node: no TypeScript loader on its
    // command line or in NODE_OPTIONS, and no process of its own but the API and the worker (tsx's
    // loader, like a transpiler left running, would show as an esbuild service beside them).
    const supervisor = processes.find((p) => p.args.includes("--demo") && p.args[0] !== "npm");
    expect(supervisor?.args, running.join("\n")).toEqual(["node", "scripts/start.js", "--demo"]);
    expect(supervisor!.nodeOptions).not.toMatch(/tsx|--import|--loader|--require|-r\b/);
    const children = processes.filter((p) => p.parent === supervisor!.pid).map((p) => p.args.slice(1).join(" "));
    expect(children.sort(), running.join("\n")).toEqual([
      `--enable-source-maps ${API_NODE_FLAGS.join(" ")} ${bundles}/src/api/server.js`,
      `--enable-source-maps ${WORKER_NODE_FLAGS.join(" ")} ${bundles}/worker/index.js`,
    ]);
    expect(existsSync(`${bundles}/src/api/server.js.map`)).toBe(true);
    expect(await group.stop("SIGTERM")).toBe(0);
    expect(group.processes()).toEqual([]);
    expect(existsSync(bundles), "the bundles stay for the next start").toBe(true);
    expect(group.output()).not.toMatch(/WARNING|will NOT be used/);
  });

  it("npm run dev listens on HOST: its readiness probe, the addresses it prints and the API's port", async () => {
    // The watch mode's supervisor asks /health on the port given (tsx passes no message on): a free one, on 127.0.0.2.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.2", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const group = await startGroup("npm", ["run", "dev"], { HOST: "127.0.0.2", PORT: String(port) });
    expect(group.base).toBe(`http://127.0.0.2:${port}`);
    expect(await readyAnswer(group.base)).toBe(200);
    // 127.0.0.1 is loopback as well, but not the address it was given.
    await expect(fetch(`http://127.0.0.1:${port}/ready`)).rejects.toThrow();
    const graphiql = await until(
      () => /GraphiQL\s+(\S+)\s/.exec(group.output())?.[1],
      (found) => found !== undefined,
      20_000,
      "the demo's GraphiQL address",
    );
    expect(graphiql).toBe(`http://127.0.0.2:${port}/graphql`);
    expect(await group.stop("SIGTERM")).toBe(0);
    expect(group.processes()).toEqual([]);
  });
});

/** An OTLP/HTTP collector on loopback that keeps what is posted to /v1/traces. */
async function startOtlpCollector() {
  const bodies: Buffer[] = [];
  const contentTypes = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/v1/traces") {
        bodies.push(Buffer.concat(chunks));
        contentTypes.add(req.headers["content-type"] ?? "");
      }
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => Buffer.concat(bodies).toString("latin1"),
    contentTypes: () => contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("the production build", { timeout: 120_000 }, () => {
  // `npm test` builds it once for its runs on both Nodes (scripts/test.sh); a run of its own builds it here.
  const given = process.env["PAYREQ_TEST_DIST"];
  const outDir = given ?? `.data/dist-test-${randomUUID().slice(0, 8)}`;
  if (!given) afterAll(() => rm(outDir, { recursive: true, force: true }));

  it("runs API, worker and CLI without tsx: a payment is announced and traced, and a worker that dies is started again", async () => {
    if (!given) await run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json", "--outDir", outDir]);
    const collector = await startOtlpCollector();
    const env = {
      DATABASE_URL: fileEnv.DATABASE_URL,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
      WEBHOOK_ISSUER: "payreq-test",
      // Tracing on, as an operator turns it on: spans go to an OTLP collector (here, one on loopback).
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: "100",
    };

    const { stdout } = await run(
      process.execPath,
      [`${outDir}/src/cli/admin.js`, "merchant", "create", "--name", "Dist", "--json"],
      {
        env: { ...process.env, ...env },
      },
    );
    const merchant = JSON.parse(stdout) as { merchantId: string; apiKey: string };

    const group = await startGroup(process.execPath, [`${outDir}/scripts/start/main.js`], env);
    expect(group.output()).toContain("is at the latest migration");
    const running = group.processes().map((p) => p.command);
    expect(
      running.filter(
        (command) => command.includes(`${outDir}/src/api/server.js`) || command.includes(`${outDir}/worker/index.js`),
      ),
    ).toHaveLength(2);
    expect(running.filter((command) => command.includes("tsx"))).toEqual([]);

    const receiver = await startReceiver();
    const { transaction } = await payAndAwaitNotification(group.base, merchant, receiver);
    expect(transaction).toMatchObject({
      transactionType: "PURCHASE",
      amount: 300,
    });
    await receiver.close();
    // Both processes export the payment's spans over OTLP (protobuf, whose strings are plain UTF-8).
    await until(
      () => collector.received(),
      (all) => ["payreq-api", "requests.pay", "payreq-worker", "webhook.deliver"].every((name) => all.includes(name)),
      20_000,
      "the API's and the worker's spans to reach the collector",
    );
    expect(collector.contentTypes()).toEqual(new Set(["application/x-protobuf"]));
    await collector.close();

    // A process that dies once the group runs is started again (scripts/start/process-group.ts, RESTART_DELAYS).
    const isWorker = (p: Process) => p.command.includes(`${outDir}/worker/index.js`);
    const worker = group.processes().find(isWorker)!;
    process.kill(worker.pid, "SIGKILL");
    const successor = await until(
      () => group.processes().find((p) => isWorker(p) && p.pid !== worker.pid),
      (found) => found !== undefined,
      20_000,
      "the worker to be started again",
    );
    expect(successor!.parent).toBe(worker.parent);
    expect(group.output()).toContain("payreq: the worker stopped (SIGKILL): starting it again in 1 s");
    expect(await group.stop("SIGTERM")).toBe(0);
    expect(group.processes()).toEqual([]);
  }, 90_000); // tsc alone takes 7-20 s on two busy cores
});

describe("a worker whose signing key cannot be read", () => {
  const made: string[] = [];
  afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

  for (const NODE_ENV of ["production", "development"]) {
    it(`in ${NODE_ENV}, exits 1 with one sentence naming the file, and the key stays current`, async () => {
      const dir = await mkdtemp(join(tmpdir(), "payreq-test-keys-"));
      made.push(dir);
      const { kid, file } = await rotateSigningKey(dir, 3_600_000);
      await rm(file);
      await mkdir(file); // unreadable even for root: EISDIR

      const child = spawn(process.execPath, [...built("worker/index.ts")], {
        env: { ...process.env, NODE_ENV, LOG_LEVEL: "info", WEBHOOK_SIGNING_KEY_DIR: dir, QUEUE_PREFIX: `test-${randomUUID()}` },
        stdio: ["ignore", "pipe", "pipe"],
      });
      onTestFinished(() => void child.kill("SIGKILL"));
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
      const [code] = (await once(child, "exit")) as [number | null];

      expect(code, stdout + stderr).toBe(1);
      const lines = stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(lines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([
        expect.stringMatching(
          new RegExp(`^worker stopped: The signing key file ${file} cannot be read \\(EISDIR, it is a directory\\): [^\\n]*\\.$`),
        ),
      ]);
      expect(lines.map((line) => line.msg)).not.toContain("worker ready");
      expect(stderr).toBe("");
      expect(await currentSigningKid()).toBe(kid);
      expect(readdirSync(dir)).toEqual([`${kid}.pem`]);
    });
  }
});
