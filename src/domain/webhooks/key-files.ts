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

/** Imports a PKCS#8 PEM and derives its public JWK and kid (the RFC 7638 thumbprint). */
export async function importKey(pem: string): Promise<SigningKey & { publicJwk: JWK }> {
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
  await publishSigningKey(key.kid, key.publicJwk, now, overlapMs);
  return { kid: key.kid, file };
}
