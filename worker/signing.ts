import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { SignJWT } from "jose";
import { importKey, rotateSigningKey, type SigningKey } from "../src/domain/webhooks/key-files.js";
import { currentSigningKid, publishSigningKey } from "../src/domain/webhooks/signing-keys.js";
import type { NotificationTransaction } from "../src/domain/webhooks/events.js";
import type { Logger } from "../src/logger.js";

interface KeySettings {
  signingKey?: string;
  signingKeyDir: string;
  keyOverlapMs: number;
  /** How long `current()` reuses the key it read (0: it asks the database every time). */
  keyCacheMs: number;
}

/**
 * The worker's private keys. With WEBHOOK_SIGNING_KEY there is exactly one, published as current
 * at start (deploying a new one rotates). Otherwise keys live as files in the key directory; the
 * current one is whichever the database names, so `signing-key rotate` takes effect without a
 * restart. A development machine without keys gets one generated, loudly.
 */
export async function openKeyStore(settings: KeySettings, logger: Logger) {
  if (settings.signingKey) {
    const pem = settings.signingKey.includes("-----BEGIN") ? settings.signingKey : await readFile(settings.signingKey, "utf8");
    const key = await importKey(pem);
    await publishSigningKey(key.kid, key.publicJwk, new Date(), settings.keyOverlapMs);
    logger.info({ kid: key.kid }, "signing with the key from WEBHOOK_SIGNING_KEY");
    return { current: async (): Promise<SigningKey> => key };
  }

  const loaded = new Map<string, SigningKey>();
  const load = async (kid: string): Promise<SigningKey | null> => {
    if (loaded.has(kid)) return loaded.get(kid)!;
    const pem = await readFile(join(settings.signingKeyDir, `${kid}.pem`), "utf8").catch(() => null);
    if (!pem) return null;
    const key = await importKey(pem);
    loaded.set(kid, key);
    return key;
  };

  const kid = await currentSigningKid();
  if (!kid || !(await load(kid))) {
    const files = await readdir(settings.signingKeyDir).catch(() => []);
    const created = await rotateSigningKey(settings.signingKeyDir, settings.keyOverlapMs);
    logger.warn(
      { kid: created.kid, file: created.file, keysOnDisk: files.length },
      "GENERATED A DEVELOPMENT SIGNING KEY: set WEBHOOK_SIGNING_KEY (a PKCS#8 PEM or a path) in production",
    );
  }

  let cached: { key: SigningKey; until: number } | null = null;
  return {
    /** The current key, re-read from the database at most every `keyCacheMs`. */
    async current(): Promise<SigningKey> {
      if (cached && cached.until > Date.now()) return cached.key;
      const currentKid = await currentSigningKid();
      const key = currentKid ? await load(currentKid) : null;
      if (!key) throw new Error(`the current signing key ${currentKid} is not in ${settings.signingKeyDir}`);
      cached = { key, until: Date.now() + settings.keyCacheMs };
      return key;
    },
  };
}

export type KeyStore = Awaited<ReturnType<typeof openKeyStore>>;

/** The notification JWT: ES256, header kid, claims iss, iat, jti (the event id) and transaction. */
export function signNotification(key: SigningKey, claims: { issuer: string; jti: string; transaction: NotificationTransaction }) {
  return new SignJWT({ transaction: claims.transaction })
    .setProtectedHeader({ alg: "ES256", typ: "JWT", kid: key.kid })
    .setIssuer(claims.issuer)
    .setIssuedAt()
    .setJti(claims.jti)
    .sign(key.privateKey);
}
