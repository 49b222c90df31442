import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runPrismaCli } from "./prisma-cli.js";

/**
 * Runs `prisma generate` when the schema or the generators changed since the last run (a stamp of
 * both is kept beside the generated code), so a warm start does not pay for it.
 * @returns whether it generated
 */
export async function ensureGeneratedClient(root: string): Promise<boolean> {
  const stampFile = join(root, "src", "generated", ".stamp");
  const stamp = await currentStamp(root);
  if ((await readFile(stampFile, "utf8").catch(() => "")) === stamp) return false;
  await generate(root);
  await writeFile(stampFile, stamp);
  return true;
}

async function currentStamp(root: string): Promise<string> {
  const inputs = await Promise.all(
    [
      "prisma/schema.prisma",
      "node_modules/prisma/package.json",
      "node_modules/@pothos/plugin-prisma/package.json",
      "node_modules/prisma-kysely/package.json",
    ].map((file) => readFile(join(root, file), "utf8")),
  );
  return createHash("sha256").update(inputs.join("\0")).digest("hex");
}

/** Generating never connects: a valid URL keeps a wrong one in the environment from sending the CLI to download engines. */
const generate = (root: string) =>
  runPrismaCli(root, "generate", ["generate"], { env: { DATABASE_URL: "postgresql://localhost/generate" } });
