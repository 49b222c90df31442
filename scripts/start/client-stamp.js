// @ts-check
/**
 * Whether the generated Prisma client (src/generated/) is current: a stamp of the schema and the
 * generators' versions is kept beside the generated code when it is generated
 * (generated-client.ts). Plain JavaScript, so that scripts/start.js can ask before anything is
 * bundled: the bundles are made of the generated code.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

const INPUTS = [
  "prisma/schema.prisma",
  "node_modules/prisma/package.json",
  "node_modules/@pothos/plugin-prisma/package.json",
  "node_modules/prisma-kysely/package.json",
];

/** @param {string} root */
export const stampFile = (root) => join(root, "src", "generated", ".stamp");

/**
 * The stamp the client generated from the project as it is now carries.
 *
 * @param {string} root
 */
export async function currentStamp(root) {
  const inputs = await Promise.all(INPUTS.map((file) => readFile(join(root, file), "utf8")));
  return createHash("sha256").update(inputs.join("\0")).digest("hex");
}

/**
 * Whether the client was generated from the project as it is now.
 *
 * @param {string} root
 */
export async function clientIsCurrent(root) {
  return (await readFile(stampFile(root), "utf8").catch(() => "")) === (await currentStamp(root));
}
