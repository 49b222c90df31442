import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, importPKCS8, type CryptoKey, type JWK } from "jose";
import { publishSigningKey } from "./signing-keys.js";

/**
 * Signing keys kept as files: the worker reads them to sign, the operator CLI makes new ones
 * (`signing-key rotate`). Private keys never reach the database.
 */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
}

/** A PEM holding more than one block: which key signs would be a guess, so none is used. */
export class SeveralKeysError extends Error {
  constructor(readonly blocks: number) {
    super(`${blocks} PEM blocks where one key belongs`);
  }
}

/** Imports a PKCS#8 PEM and derives its public JWK and kid (the RFC 7638 thumbprint). Throws SeveralKeysError for a PEM of several blocks. */
export async function importKey(pem: string): Promise<SigningKey & { publicJwk: JWK }> {
  // The PEM reader takes the first block and ignores the rest: two keys in one file signed with the first, unseen.
  const blocks = pem.match(/-----BEGIN [^-\r\n]+-----/g)?.length ?? 0;
  if (blocks > 1) throw new SeveralKeysError(blocks);
  const privateKey = await importPKCS8(pem, "ES256", { extractable: true });
  const { d: _private, ...publicJwk } = await exportJWK(privateKey);
  return { kid: await calculateJwkThumbprint(publicJwk), privateKey, publicJwk };
}

/** Makes a new P-256 key, keeps its private half in `dir` (mode 0600) and publishes the public half as current. */
export async function rotateSigningKey(dir: string, overlapMs: number, now = new Date()) {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const pem = await exportPKCS8(privateKey);
  const key = await importKey(pem);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${key.kid}.pem`);
  await writeFile(file, pem, { mode: 0o600 });
  await chmod(file, 0o600);
  await publishSigningKey(key.kid, key.publicJwk, now, overlapMs, "directory");
  return { kid: key.kid, file };
}
