import { constants } from "node:fs";
import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { SignJWT } from "jose";
import { importKey, rotateSigningKey, SeveralKeysError, type SigningKey } from "../src/domain/webhooks/key-files.js";
import { currentSigningKey, holdingKeyGeneration, publishSigningKey } from "../src/domain/webhooks/signing-keys.js";
import type { NotificationTransaction } from "../src/domain/webhooks/events.js";
import type { Logger } from "../src/logger.js";

interface KeySettings {
  signingKey?: string;
  signingKeyDir: string;
  keyOverlapMs: number;
  /** How long `current()` reuses the key it read (0: it asks the database every time). */
  keyCacheMs: number;
  /** Whether a missing key file may be replaced by a generated one (development, never production). */
  generateMissingKey: boolean;
}

/** A signing key the worker cannot use, said in one sentence that names the path and the fix. The worker stops on it. */
export class SigningKeyProblem extends Error {
  override name = "SigningKeyProblem";
}

const ROTATE = `"npm run admin -- signing-key rotate"`;

/**
 * The worker's private keys. With WEBHOOK_SIGNING_KEY there is exactly one, published as current
 * at start (deploying a new one rotates). Otherwise keys live as files in the key directory; the
 * current one is whichever the database names, so `signing-key rotate` takes effect without a
 * restart. Only a key file that does not exist, in development, is replaced by a generated key
 * (loudly); any other failure to read a key is a SigningKeyProblem and never rotates the key.
 *
 * Every worker must be able to sign with the current key (the one the database names, and the
 * JWKS publishes as current), so all of them keep keys the same way. A worker whose setting would
 * leave it, or the others, unable to do so refuses to start (a SigningKeyProblem): one given
 * WEBHOOK_SIGNING_KEY while the current key lives in a key directory (publishing its own key would
 * make every worker that reads the directory fail each delivery), and one reading a key directory
 * while the current key came from another worker's WEBHOOK_SIGNING_KEY and is not in the directory
 * (generating a key would leave those workers signing with a retired one).
 */
export async function openKeyStore(settings: KeySettings, logger: Logger) {
  if (settings.signingKey) {
    const key = await keyFromSetting(settings.signingKey);
    const current = await currentSigningKey();
    if (current && current.kid !== key.kid && current.source === "directory") {
      throw new SigningKeyProblem(
        `WEBHOOK_SIGNING_KEY holds key ${key.kid}, but the current signing key ${current.kid} is kept in a key directory (made by ${ROTATE}), and workers signing from that directory could not sign with this one: give every worker the same setting, such as WEBHOOK_SIGNING_KEY set to that key's file ${current.kid}.pem, or leave it unset here.`,
      );
    }
    await publishSigningKey(key.kid, key.publicJwk, new Date(), settings.keyOverlapMs, "setting");
    logger.info({ kid: key.kid }, "signing with the key from WEBHOOK_SIGNING_KEY");
    return { current: async (): Promise<SigningKey> => key };
  }

  const dir = settings.signingKeyDir;
  const loaded = new Map<string, SigningKey>();
  const load = async (kid: string): Promise<SigningKey | null> => {
    if (loaded.has(kid)) return loaded.get(kid)!;
    const key = await readKeyFile(join(dir, `${kid}.pem`));
    if (key) loaded.set(kid, key);
    return key;
  };

  // Workers starting at once on one database take turns, so only the first generates a key.
  await holdingKeyGeneration(async () => {
    const files = await keyFilesIn(dir);
    const current = await currentSigningKey();
    const kid = current?.kid;
    if (kid && (await load(kid))) return;
    if (current?.source === "setting") {
      throw new SigningKeyProblem(
        `The current signing key ${current.kid} comes from another worker's WEBHOOK_SIGNING_KEY and ${join(dir, `${current.kid}.pem`)} does not exist, so this worker, which reads its keys from WEBHOOK_SIGNING_KEY_DIR, could not sign with it: set WEBHOOK_SIGNING_KEY here as on the other workers.`,
      );
    }
    if (!settings.generateMissingKey) {
      throw new SigningKeyProblem(
        kid
          ? `The current signing key's file ${join(dir, `${kid}.pem`)} does not exist and NODE_ENV=production generates none: restore the file, set WEBHOOK_SIGNING_KEY, or make a new key with ${ROTATE}.`
          : `There is no signing key in ${dir} and NODE_ENV=production generates none: set WEBHOOK_SIGNING_KEY to a PKCS#8 PEM (or the path of one), or make a key there with ${ROTATE}.`,
      );
    }
    const created = await rotateSigningKey(dir, settings.keyOverlapMs).catch((err: unknown) => {
      throw new SigningKeyProblem(
        `Cannot write a development signing key into ${dir} (${reasonOf(err)}): make the directory writable by the worker, or set WEBHOOK_SIGNING_KEY_DIR to one that is.`,
      );
    });
    logger.warn(
      { kid: created.kid, file: created.file, keysOnDisk: files.length },
      "GENERATED A DEVELOPMENT SIGNING KEY: set WEBHOOK_SIGNING_KEY (a PKCS#8 PEM or a path) in production",
    );
  });

  let cached: { key: SigningKey; until: number } | null = null;
  return {
    /** The current key, re-read from the database at most every `keyCacheMs`. */
    async current(): Promise<SigningKey> {
      if (cached && cached.until > Date.now()) return cached.key;
      const currentKid = (await currentSigningKey())?.kid;
      const key = currentKid ? await load(currentKid) : null;
      if (!key) throw new Error(`the current signing key ${currentKid} is not in ${dir}`);
      cached = { key, until: Date.now() + settings.keyCacheMs };
      return key;
    },
  };
}

/** The key of WEBHOOK_SIGNING_KEY: the PEM itself, or the path of a file holding it. */
async function keyFromSetting(setting: string) {
  const inline = setting.includes("-----BEGIN");
  // A value that does not look like a path may be a key pasted without its PEM lines: never repeat it.
  const path = /^(\.{0,2}\/|~\/)[\w./~-]*$|^[\w./~-]+\.(pem|key)$/.test(setting) ? setting : null;
  let pem = setting;
  if (!inline) {
    try {
      pem = await readKeyText(setting);
    } catch (err) {
      throw new SigningKeyProblem(
        `${path ? `WEBHOOK_SIGNING_KEY names ${path}, which cannot be read` : "WEBHOOK_SIGNING_KEY is neither a PEM nor the path of a readable file"} (${reasonOf(err)}): set it to the path of a readable PKCS#8 PEM file, or to the PEM itself.`,
      );
    }
  }
  return importKey(pem).catch((err: unknown) => {
    if (err instanceof SeveralKeysError)
      throw new SigningKeyProblem(
        inline
          ? `WEBHOOK_SIGNING_KEY holds ${err.blocks} PEM blocks, and which key signs would be a guess: set it to the one signing key's PKCS#8 PEM.`
          : `The file ${path ?? "that WEBHOOK_SIGNING_KEY names"} holds ${err.blocks} PEM blocks, and which key signs would be a guess: keep only the signing key's PKCS#8 PEM in it.`,
      );
    throw new SigningKeyProblem(
      inline
        ? "WEBHOOK_SIGNING_KEY is not a PKCS#8 PEM of a P-256 key: set it to one (-----BEGIN PRIVATE KEY-----), or to the path of a file holding one."
        : `The file ${path ?? "that WEBHOOK_SIGNING_KEY names"} is not a PKCS#8 PEM of a P-256 key: put the key's PEM in it, or point WEBHOOK_SIGNING_KEY at the right file.`,
    );
  });
}

/** The key in `file`; null only when the file does not exist. */
async function readKeyFile(file: string): Promise<SigningKey | null> {
  let pem: string;
  try {
    pem = await readKeyText(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new SigningKeyProblem(
      `The signing key file ${file} cannot be read (${reasonOf(err)}): make it a file the worker can read holding the key's PKCS#8 PEM, or make a new key with ${ROTATE}.`,
    );
  }
  return importKey(pem).catch((err: unknown) => {
    throw new SigningKeyProblem(
      err instanceof SeveralKeysError
        ? `The signing key file ${file} holds ${err.blocks} PEM blocks, and which key signs would be a guess: keep only its own key's PKCS#8 PEM in it.`
        : `The signing key file ${file} is not a PKCS#8 PEM of a P-256 key: put the key's PEM back in it, or make a new key with ${ROTATE}.`,
    );
  });
}

/**
 * The text of a key file, which must be a regular file. A named pipe or a device could keep a read
 * waiting for good, and a read left waiting would keep the process from exiting even once it stops
 * (Node waits for its file-system threads), so it is opened without waiting and refused by its type.
 */
async function readKeyText(path: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw Object.assign(new Error("it is a directory"), { code: "EISDIR" });
    if (!stats.isFile()) throw new Error(stats.isFIFO() ? "it is a named pipe, not a regular file" : "it is not a regular file");
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

/** The files in the key directory; none when it does not exist yet. */
async function keyFilesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new SigningKeyProblem(
      `The signing key directory ${dir} cannot be read (${reasonOf(err)}): set WEBHOOK_SIGNING_KEY_DIR to a directory the worker can read, or set WEBHOOK_SIGNING_KEY.`,
    );
  }
}

const reasons: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a directory",
  ENOTDIR: "it is not a directory",
  ENOENT: "it does not exist",
  EEXIST: "a file of that name is in the way",
  EROFS: "the file system is read-only",
  ENXIO: "it is a socket, or a device that is not there",
};

/** Why a file operation failed, briefly: `EISDIR, it is a directory`. */
function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (!code) return (err as Error).message ?? String(err);
  return reasons[code] ? `${code}, ${reasons[code]}` : code;
}

export type KeyStore = Awaited<ReturnType<typeof openKeyStore>>;

/** The notification JWT: ES256, header kid, claims iss, iat, jti (the event id) and transaction. */
export function signNotification(key: SigningKey, claims: { issuer: string; jti: string; transaction: NotificationTransaction }) {
  return signToken(key, { issuer: claims.issuer, jti: claims.jti, claims: { transaction: claims.transaction } });
}

/** A webhook JWT: ES256, header kid, claims iss, iat, jti and the given ones. */
export function signToken(key: SigningKey, token: { issuer: string; jti: string; claims: Record<string, unknown> }) {
  return new SignJWT(token.claims)
    .setProtectedHeader({ alg: "ES256", typ: "JWT", kid: key.kid })
    .setIssuer(token.issuer)
    .setIssuedAt()
    .setJti(token.jti)
    .sign(key.privateKey);
}
