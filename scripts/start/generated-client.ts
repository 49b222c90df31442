import { writeFile } from "node:fs/promises";
import { clientIsCurrent, currentStamp, stampFile } from "./client-stamp.js";
import { runPrismaCli } from "./prisma-cli.js";

/**
 * Runs `prisma generate` when the schema or the generators changed since the last run (a stamp of
 * both is kept beside the generated code: client-stamp.js), so a warm start does not pay for it.
 * @returns whether it generated
 */
export async function ensureGeneratedClient(root: string): Promise<boolean> {
  if (await clientIsCurrent(root)) return false;
  await generate(root);
  await writeFile(stampFile(root), await currentStamp(root));
  return true;
}

/** Generating never connects: a valid URL keeps a wrong one in the environment from sending the CLI to download engines. */
const generate = (root: string) =>
  runPrismaCli(root, "generate", ["generate"], { env: { DATABASE_URL: "postgresql://localhost/generate" } });
