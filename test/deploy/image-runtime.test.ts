/**
 * The image's runtime stage, reproduced without Docker: the files its COPY instructions take (the
 * bundles of the build stage, the packages the dependencies stage keeps, and files of the build
 * context) are put into a temporary folder the way the Dockerfile's RUN lines make them, and the
 * image's commands run from there: the migration against a database of its own, the API (/health,
 * /ready, a call), the operator CLI, and the worker with its health check. Nothing outside that
 * folder is reachable to them: node_modules of the checkout are not on their path.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { DockerfileParser, type Copy, type Instruction } from "dockerfile-ast";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { reportedPort } from "../../scripts/node-process.js";
import { dropDatabase } from "../../scripts/start/database-admin.js";
import { bundle } from "../../scripts/image/bundle.js";
import { apiProcessesOf } from "../processes.js";
import { until } from "../until.js";

const root = resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(join(root, file), "utf8");

/** The Dockerfile's instructions, by stage name. */
function stages(): Map<string, Instruction[]> {
  const byStage = new Map<string, Instruction[]>();
  let current: Instruction[] = [];
  for (const instruction of DockerfileParser.parse(read("Dockerfile")).getInstructions()) {
    if (instruction.getKeyword() === "FROM") {
      current = [];
      byStage.set(instruction.getArgumentsContent()!.split(/\s+AS\s+/i)[1]!, current);
    } else current.push(instruction);
  }
  return byStage;
}
const runsOf = (instructions: Instruction[]) =>
  instructions.filter((i) => i.getKeyword() === "RUN").map((i) => i.getArgumentsContent());

/** Bytes of the files under `path`, as `du --apparent-size` counts them. */
function sizeOf(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.size;
  return readdirSync(path).reduce((sum, entry) => sum + sizeOf(join(path, entry)), 0);
}

const work = join(tmpdir(), `payreq-image-${randomBytes(4).toString("hex")}`);
/** The image's WORKDIR. */
const app = join(work, "app");
const database = new URL(process.env["DATABASE_URL"]!);
database.pathname = `/payreq_test_image_${randomBytes(4).toString("hex")}`;
const queuePrefix = `payreq-image-test-${randomBytes(4).toString("hex")}`;
const children: ChildProcess[] = [];

/** The image's environment (its ENV), with this test's database and Redis; no settings file. */
const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  NODE_ENV: "production",
  PORT: "0",
  METRICS_PORT: "0",
  WEBHOOK_SIGNING_KEY_DIR: join(work, "signing-keys"),
  DATABASE_URL: database.toString(),
  REDIS_URL: process.env["REDIS_URL"],
  QUEUE_PREFIX: queuePrefix,
  LOG_LEVEL: "warn",
  ENV_FILE: "",
  ...extra,
});

/** Runs one of the image's commands (`node dist/…`) from the reproduced image, with node's flags as given. */
function start(command: string[], extra: Record<string, string> = {}, quiet = false): ChildProcess {
  expect(command[0]).toBe("node");
  const child = spawn(process.execPath, command.slice(1), {
    cwd: app,
    env: env(extra),
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  child.on("exit", (code) => code && !quiet && console.error(`${command.join(" ")} exited ${code}:\n${output}`));
  children.push(child);
  return child;
}
const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((done) => (child.exitCode !== null ? done(child.exitCode) : child.once("exit", done)));

const compose = parse(read("compose.yaml"), { merge: true }) as {
  services: Record<string, { command?: string[]; healthcheck?: { test?: string[] } }>;
};

beforeAll(async () => {
  const byStage = stages();
  // What the stages' RUN lines make, made here the same way.
  const made = { build: join(work, "build"), dependencies: join(work, "dependencies") };
  expect(runsOf(byStage.get("build")!)).toContain("node scripts/image/bundle.js /image/dist");
  await bundle(join(made.build, "image", "dist"));
  // `npm run build` there bundles the console's browser code as `npm run setup` did here.
  expect(runsOf(byStage.get("build")!)).toContain("npm run build");
  cpSync(join(root, "src", "generated", "console"), join(made.build, "app", "src", "generated", "console"), { recursive: true });
  expect(runsOf(byStage.get("dependencies")!)).toContain("node scripts/image/modules.js /app /image");
  // The checkout's node_modules has the development packages too; the script copies what the
  // lockfile says the kept packages need, which is the same in both trees.
  const copy = spawn(process.execPath, ["scripts/image/modules.js", root, join(made.dependencies, "image")], { cwd: root });
  expect(await exitOf(copy)).toBe(0);

  // The runtime stage's COPY lines, relative to its WORKDIR.
  for (const instruction of byStage.get("runtime")!.filter((i) => i.getKeyword() === "COPY")) {
    const from = (instruction as Copy).getFromFlag()?.getValue() as keyof typeof made | undefined;
    const paths = instruction.getArguments().map((a) => a.getValue());
    const destination = paths.pop()!;
    for (const source of paths) {
      const path = from ? join(made[from], source) : join(root, source);
      const file = statSync(path).isFile();
      // As COPY does: a file into a destination that ends in "/", a folder's contents onto the destination.
      const into = file && destination.endsWith("/") ? join(app, destination, basename(path)) : join(app, destination);
      mkdirSync(dirname(into), { recursive: true });
      // What a stage made is used once: moved rather than copied, a little faster.
      if (from) renameSync(path, into);
      else cpSync(path, into, { recursive: true });
    }
  }
}, 180_000);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await dropDatabase(database.toString());
  const redis = new Redis(process.env["REDIS_URL"]!);
  const keys = await redis.keys(`${queuePrefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
  // Tens of thousands of files (the Prisma CLI's): seconds on a slow disk.
  await rm(work, { recursive: true, force: true });
});

describe("the image's runtime files", () => {
  it("are the bundles and the packages they leave out, a fifth of the production packages' 538 MB", () => {
    const megabytes = (path: string) => sizeOf(join(app, path)) / 2 ** 20;
    const total = megabytes(".");
    console.log(
      `image runtime files: ${total.toFixed(0)} MiB (dist ${megabytes("dist").toFixed(0)}, node_modules ${megabytes("node_modules").toFixed(0)})`,
    );
    expect(total).toBeLessThan(150);
    // Build tools and packages the bundles carry are not there.
    const kept = readdirSync(join(app, "node_modules"));
    for (const absent of ["prisma", "typescript", "effect", "esbuild", "graphql", "hono", "@electric-sql"])
      expect(kept).not.toContain(absent);
    expect(readdirSync(join(app, "node_modules", "@prisma"))).not.toContain("client");
  });
});

describe("from the image's files", () => {
  it("the migration creates the database and applies every migration", async () => {
    const migrate = start(compose.services.migrate!.command!);
    expect(await exitOf(migrate)).toBe(0);
    const client = new pg.Client({ connectionString: database.toString() });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>(
        "select count(*) as n from _prisma_migrations where finished_at is not null",
      );
      const migrations = readdirSync(join(root, "prisma/migrations")).filter((entry) =>
        statSync(join(root, "prisma/migrations", entry)).isDirectory(),
      );
      expect(Number(rows[0]!.n)).toBe(migrations.length);
    } finally {
      await client.end();
    }
  });

  it("the API (the image's default command) runs API_PROCESSES processes answering /health, /ready and a call; the CLI makes a merchant", async () => {
    const cmd = JSON.parse(read("Dockerfile").match(/^CMD (\[.*\])$/m)![1]!) as string[];
    const api = start(cmd, { API_PROCESSES: "2" });
    const base = `http://127.0.0.1:${await reportedPort(api, "the API")}`;
    expect(apiProcessesOf(api.pid!)).toHaveLength(2);
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect(await (await fetch(`${base}/ready`)).json()).toMatchObject({ status: "ready", database: "ok", redis: "ok" });

    const cli = start(["node", "dist/src/cli/admin.js", "merchant", "create", "--name", "Image Cafe", "--json"]);
    let output = "";
    cli.stdout!.on("data", (chunk: Buffer) => (output += chunk));
    expect(await exitOf(cli)).toBe(0);
    const { merchantId, apiKey } = JSON.parse(output) as { merchantId: string; apiKey: string };
    const created = await fetch(`${base}/api/requests.create`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({ merchantId, asset: "NZD", amount: 300 }),
    });
    expect([created.status, ((await created.json()) as { status?: string }).status]).toEqual([200, "new"]);
  });

  it("the worker starts and its health check passes", async () => {
    const key = join(work, "webhook-signing-key.pem");
    writeFileSync(key, generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }));
    const heartbeat = join(work, "heartbeat");
    const extra = { WEBHOOK_SIGNING_KEY: key, WORKER_HEALTH_FILE: heartbeat };
    start(compose.services.worker!.command!, extra);
    const [, ...check] = compose.services.worker!.healthcheck!.test!;
    const passes = async () => (await exitOf(start(check, extra, true))) === 0;
    expect(await until(passes, Boolean, 30_000, "the worker's health check to pass", 500)).toBe(true);
  });
});
