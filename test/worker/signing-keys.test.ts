/**
 * How the worker opens its signing keys (worker/signing.ts): only a key file that does not exist,
 * in development, is replaced by a generated key; every other failure to read a key stops the
 * worker with one sentence naming the path, and never rotates the key. This file's database is its
 * own, so the current key here is this file's alone.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "../../src/db.js";
import { rotateSigningKey } from "../../src/domain/webhooks/key-files.js";
import { currentSigningKid } from "../../src/domain/webhooks/signing-keys.js";
import { openKeyStore, SigningKeyProblem } from "../../worker/signing.js";
import { silentLogger, workerConfig } from "./harness.js";

const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));
async function emptyDirectory() {
  const dir = await mkdtemp(join(tmpdir(), "payreq-test-keys-"));
  made.push(dir);
  return dir;
}

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
});
