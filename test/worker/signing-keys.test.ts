/**
 * How the worker opens its signing keys (worker/signing.ts): only a key file that does not exist,
 * in development, is replaced by a generated key; every other failure to read a key stops the
 * worker with one sentence naming the path, and never rotates the key. This file's database is its
 * own, so the current key here is this file's alone.
 */
import { execFile, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { exportPKCS8, generateKeyPair } from "jose";
import pg from "pg";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { built } from "../built.js";
import { db } from "../prisma.js";
import { rotateSigningKey } from "../../src/domain/webhooks/key-files.js";
import { currentSigningKey, currentSigningKid } from "../../src/domain/webhooks/signing-keys.js";
import { openKeyStore, SigningKeyProblem } from "../../worker/signing.js";
import { silentLogger, until, workerConfig } from "./harness.js";

const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));
async function emptyDirectory() {
  const dir = await mkdtemp(join(tmpdir(), "payreq-test-keys-"));
  made.push(dir);
  return dir;
}

/** A new P-256 key's PKCS#8 PEM, as an operator would deploy it. */
const newPem = async () => exportPKCS8((await generateKeyPair("ES256", { extractable: true })).privateKey);

const settings = (overrides: Partial<ReturnType<typeof workerConfig>["webhooks"]>) => ({
  ...workerConfig().webhooks,
  ...overrides,
});

describe("opening the signing keys", () => {
  it("two workers starting at once on an empty directory end with one key", async () => {
    await db.signingKey.deleteMany();
    const dir = await emptyDirectory();
    const stores = await Promise.all(
      Array.from({ length: 4 }, () => openKeyStore(settings({ signingKeyDir: dir }), silentLogger)),
    );
    expect(await db.signingKey.count()).toBe(1);
    expect(await readdir(dir)).toHaveLength(1);
    const kids = await Promise.all(stores.map(async (store) => (await store.current()).kid));
    expect(new Set(kids)).toEqual(new Set([await currentSigningKid()]));
  });

  it("generates a key for a missing key file in development", async () => {
    await rotateSigningKey(await emptyDirectory(), 3_600_000);
    const before = await currentSigningKid();
    const dir = await emptyDirectory();
    const store = await openKeyStore(settings({ signingKeyDir: dir, generateMissingKey: true }), silentLogger);
    expect((await store.current()).kid).not.toBe(before);
    expect(await readdir(dir)).toEqual([`${(await store.current()).kid}.pem`]);
  });

  /** A directory whose current key file is broken by `breakIt`; the expected sentence, given the file. */
  const unreadable: [string, (file: string) => Promise<unknown>, (file: string) => RegExp][] = [
    [
      "the key file is a directory",
      (file) => rm(file).then(() => mkdir(file)),
      (file) => new RegExp(`^The signing key file ${file} cannot be read \\(EISDIR, it is a directory\\): [^\\n]*\\.$`),
    ],
    [
      "the key file holds no PEM",
      (file) => writeFile(file, "not a key"),
      (file) => new RegExp(`^The signing key file ${file} is not a PKCS#8 PEM of a P-256 key: [^\\n]*\\.$`),
    ],
    [
      "the key file holds a damaged PEM",
      (file) => writeFile(file, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"),
      (file) => new RegExp(`^The signing key file ${file} is not a PKCS#8 PEM of a P-256 key: [^\\n]*\\.$`),
    ],
  ];
  for (const generateMissingKey of [true, false]) {
    const where = generateMissingKey ? "in development" : "in production";
    it.each(unreadable)(`${where}, stops when %s, and keeps the current key`, async (_, breakIt, sentence) => {
      const dir = await emptyDirectory();
      const { kid, file } = await rotateSigningKey(dir, 3_600_000);
      await breakIt(file);
      const opening = openKeyStore(settings({ signingKeyDir: dir, generateMissingKey }), silentLogger);
      await expect(opening).rejects.toThrow(SigningKeyProblem);
      await expect(opening).rejects.toThrow(sentence(file));
      expect(await currentSigningKid()).toBe(kid);
      expect(await readdir(dir)).toEqual([`${kid}.pem`]);
    });

    it(`${where}, stops when the key directory is not a readable directory`, async () => {
      const { kid } = await rotateSigningKey(await emptyDirectory(), 3_600_000);
      const notADirectory = join(await emptyDirectory(), "keys");
      await writeFile(notADirectory, "");
      const opening = openKeyStore(settings({ signingKeyDir: notADirectory, generateMissingKey }), silentLogger);
      await expect(opening).rejects.toThrow(
        new RegExp(
          `^The signing key directory ${notADirectory} cannot be read \\(ENOTDIR, it is not a directory\\): [^\\n]*\\.$`,
        ),
      );
      expect(await currentSigningKid()).toBe(kid);
    });
  }

  it("in production, stops when the current key's file is missing, and when there is no key at all", async () => {
    const { kid } = await rotateSigningKey(await emptyDirectory(), 3_600_000);
    const dir = await emptyDirectory();
    await expect(openKeyStore(settings({ signingKeyDir: dir, generateMissingKey: false }), silentLogger)).rejects.toThrow(
      new RegExp(
        `^The current signing key's file ${join(dir, `${kid}.pem`)} does not exist and NODE_ENV=production generates none: [^\\n]*\\.$`,
      ),
    );
    expect(await currentSigningKid()).toBe(kid);
    expect(await readdir(dir)).toEqual([]);

    await db.signingKey.deleteMany();
    await expect(openKeyStore(settings({ signingKeyDir: dir, generateMissingKey: false }), silentLogger)).rejects.toThrow(
      new RegExp(`^There is no signing key in ${dir} and NODE_ENV=production generates none: [^\\n]*\\.$`),
    );
    expect(await db.signingKey.count()).toBe(0);
  });

  it("stops when WEBHOOK_SIGNING_KEY cannot be read or is not a key, naming the path but never the value", async () => {
    const dir = await emptyDirectory();
    const { kid } = await rotateSigningKey(dir, 3_600_000);
    const cases: [string, RegExp][] = [
      [
        join(dir, "missing.pem"),
        /^WEBHOOK_SIGNING_KEY names \S+missing\.pem, which cannot be read \(ENOENT, it does not exist\): [^\n]*\.$/,
      ],
      [dir, /^WEBHOOK_SIGNING_KEY names \S+, which cannot be read \(EISDIR, it is a directory\): [^\n]*\.$/],
      [
        "MHcCAQEEIBbmW2yQe4N0XhC4H0o7secret",
        /^WEBHOOK_SIGNING_KEY is neither a PEM nor the path of a readable file \(ENOENT[^)]*\): [^\n]*\.$/,
      ],
      [
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
        /^WEBHOOK_SIGNING_KEY is not a PKCS#8 PEM of a P-256 key: [^\n]*\.$/,
      ],
    ];
    for (const [signingKey, sentence] of cases) {
      const opening = openKeyStore(settings({ signingKey }), silentLogger);
      await expect(opening).rejects.toThrow(sentence);
      await expect(opening).rejects.not.toThrow(/secret/);
    }
    expect(await currentSigningKid()).toBe(kid);
  });

  it("refuses WEBHOOK_SIGNING_KEY while the current key is kept in a key directory, unless it is that key", async () => {
    const dir = await emptyDirectory();
    const { kid, file } = await rotateSigningKey(dir, 3_600_000);
    // Publishing this key would leave every worker that reads the directory unable to sign.
    const opening = openKeyStore(settings({ signingKey: await newPem() }), silentLogger);
    await expect(opening).rejects.toThrow(SigningKeyProblem);
    await expect(opening).rejects.toThrow(
      new RegExp(
        `^WEBHOOK_SIGNING_KEY holds key \\S+, but the current signing key ${kid} is kept in a key directory \\(made by [^)]*\\), and workers signing from that directory could not sign with this one: [^\\n]*\\.$`,
      ),
    );
    expect(await currentSigningKey()).toEqual({ kid, source: "directory" });

    // Given the current key's own file, a worker signs with it, and the setting takes it over...
    const adopted = await openKeyStore(settings({ signingKey: file }), silentLogger);
    expect((await adopted.current()).kid).toBe(kid);
    expect(await currentSigningKey()).toEqual({ kid, source: "setting" });
    // ...so that deploying another key rotates, as it does for keys of the setting.
    const deployed = await openKeyStore(settings({ signingKey: await newPem() }), silentLogger);
    expect(await currentSigningKey()).toEqual({ kid: (await deployed.current()).kid, source: "setting" });
  });

  for (const generateMissingKey of [true, false]) {
    it(`${generateMissingKey ? "in development" : "in production"}, refuses a key directory without the current key when another worker's WEBHOOK_SIGNING_KEY made it`, async () => {
      const deployed = await openKeyStore(settings({ signingKey: await newPem() }), silentLogger);
      const { kid } = await deployed.current();
      const dir = await emptyDirectory();
      const opening = openKeyStore(settings({ signingKeyDir: dir, generateMissingKey }), silentLogger);
      await expect(opening).rejects.toThrow(
        new RegExp(
          `^The current signing key ${kid} comes from another worker's WEBHOOK_SIGNING_KEY and ${join(dir, `${kid}.pem`)} does not exist, so this worker, which reads its keys from WEBHOOK_SIGNING_KEY_DIR, could not sign with it: set WEBHOOK_SIGNING_KEY here as on the other workers\\.$`,
        ),
      );
      // No key was generated: the workers of the setting still sign with the current key.
      expect(await currentSigningKey()).toEqual({ kid, source: "setting" });
      expect(await readdir(dir)).toEqual([]);
    });
  }

  it("refuses a key file or WEBHOOK_SIGNING_KEY holding two keys, naming the path but never the value", async () => {
    const dir = await emptyDirectory();
    const { kid, file } = await rotateSigningKey(dir, 3_600_000);
    const two = (await readFile(file, "utf8")) + (await newPem());
    const setting = join(await emptyDirectory(), "two.pem");
    await writeFile(setting, two);
    const cases: [Parameters<typeof settings>[0], RegExp][] = [
      [{ signingKey: two }, /^WEBHOOK_SIGNING_KEY holds 2 PEM blocks, and which key signs would be a guess: [^\n]*\.$/],
      [
        { signingKey: setting },
        new RegExp(`^The file ${setting} holds 2 PEM blocks, and which key signs would be a guess: [^\\n]*\\.$`),
      ],
    ];
    for (const [overrides, sentence] of cases) {
      const opening = openKeyStore(settings(overrides), silentLogger);
      await expect(opening).rejects.toThrow(sentence);
      await expect(opening).rejects.not.toThrow(/PRIVATE KEY|MIG/);
    }
    // The current key's own file, with a second key after its own: its first key is current, yet refused.
    await writeFile(file, two);
    await expect(openKeyStore(settings({ signingKeyDir: dir }), silentLogger)).rejects.toThrow(
      new RegExp(`^The signing key file ${file} holds 2 PEM blocks, and which key signs would be a guess: [^\\n]*\\.$`),
    );
    expect(await currentSigningKid()).toBe(kid);
  });
});

describe("a worker started with signing-key settings unlike the other workers'", () => {
  it("exits 1 with one sentence naming the setting and no secret, and the current key stays", async () => {
    const dir = await emptyDirectory();
    const { kid } = await rotateSigningKey(dir, 3_600_000);
    const pem = await newPem();
    const child = spawn(process.execPath, [...built("worker/index.ts")], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        LOG_LEVEL: "info",
        WEBHOOK_SIGNING_KEY: pem,
        WEBHOOK_SIGNING_KEY_DIR: dir,
        QUEUE_PREFIX: `test-${randomUUID()}`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    onTestFinished(() => void child.kill("SIGKILL"));
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code, output).toBe(1);
    const lines = output
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^worker stopped: WEBHOOK_SIGNING_KEY holds key \\S+, but the current signing key ${kid} is kept in a key directory [^\\n]*\\.$`,
        ),
      ),
    ]);
    expect(lines.map((line) => line.msg)).not.toContain("worker ready");
    expect(output).not.toContain(pem.split("\n")[1]!);
    expect(await currentSigningKey()).toEqual({ kid, source: "directory" });
  });
});

/** A worker process of this file's database, in production, with `env`; its output and its exit. */
function startWorkerProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, [...built("worker/index.ts")], {
    env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "info", QUEUE_PREFIX: `test-${randomUUID()}`, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  onTestFinished(() => void child.kill("SIGKILL"));
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const exit = { code: undefined as number | null | undefined };
  child.once("exit", (code) => (exit.code = code));
  /** Its exit code, once it has exited within `timeoutMs`. */
  const exited = (timeoutMs: number, what: string) =>
    until(
      () => exit.code,
      (code) => code !== undefined,
      timeoutMs,
      () => `${what}; its output: ${output}`,
    );
  return { child, output: () => output, exited };
}

describe("a worker whose key file is not a regular file", () => {
  const mkfifo = (path: string) => promisify(execFile)("mkfifo", [path]);

  it.each([
    [
      "the current key's file in WEBHOOK_SIGNING_KEY_DIR",
      async (dir: string) => {
        const { file } = await rotateSigningKey(dir, 3_600_000);
        await rm(file);
        await mkfifo(file);
        return { env: { WEBHOOK_SIGNING_KEY_DIR: dir }, sentence: `The signing key file ${file} cannot be read` };
      },
    ],
    [
      "the file WEBHOOK_SIGNING_KEY names",
      async (dir: string) => {
        const file = join(dir, "webhook-signing-key.pem");
        await mkfifo(file);
        return { env: { WEBHOOK_SIGNING_KEY: file }, sentence: `WEBHOOK_SIGNING_KEY names ${file}, which cannot be read` };
      },
    ],
  ])("exits 1 with one sentence naming the path when it is a named pipe: %s", async (_, makePipe) => {
    const { env, sentence } = await makePipe(await emptyDirectory());
    const worker = startWorkerProcess(env);
    // Opening a named pipe waits for a writer: the worker hung there, and SIGTERM could not end it.
    expect(await worker.exited(15_000, "the worker to exit")).toBe(1);
    const lines = worker
      .output()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    const escaped = sentence.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    expect(lines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([
      expect.stringMatching(new RegExp(`^worker stopped: ${escaped} \\(it is a named pipe, not a regular file\\): [^\\n]*\\.$`)),
    ]);
  });
});

describe("a worker stopped while it starts", () => {
  it("exits at once on SIGTERM while it waits for another worker's key generation", async () => {
    // Another worker generating a key, as far as this one can tell: the lock it waits for.
    const other = new pg.Client({ connectionString: process.env["DATABASE_URL"] });
    await other.connect();
    onTestFinished(() => other.end());
    await other.query("BEGIN");
    await other.query("SELECT pg_advisory_xact_lock(hashtext('signing_key_generation'))");

    const worker = startWorkerProcess({ WEBHOOK_SIGNING_KEY_DIR: await emptyDirectory() });
    const waiting = () =>
      other
        .query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        )
        .then(({ rows }) => rows[0]!.n);
    await until(waiting, (n) => n === 1, 15_000, "the worker to wait for the key generation lock");

    worker.child.kill("SIGTERM");
    // Its shutdown waited for the pool, which the waiting transaction held, until the forced exit (15 s, code 1).
    expect(await worker.exited(3_000, "the worker to exit on SIGTERM")).toBe(0);
    expect(worker.output()).not.toContain("worker ready");
  });
});
