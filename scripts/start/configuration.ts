import type { z } from "zod";
import { processEnvs } from "../../src/env.js";
import { StartupProblem } from "./problem.js";

/**
 * Checks the environment against every process's schema (or those of `schemas`) before anything
 * else runs, and names every variable that is wrong at once.
 */
export function checkConfiguration(
  env: NodeJS.ProcessEnv = process.env,
  schemas: Partial<typeof processEnvs> = processEnvs,
): void {
  const problems = new Map<string, string>();
  for (const schema of Object.values(schemas) as z.ZodType[]) {
    const parsed = schema.safeParse(env);
    if (parsed.success) continue;
    for (const issue of parsed.error.issues) problems.set(issue.path.join("."), issue.message);
  }
  if (problems.size === 0) return;
  const list = [...problems].map(([name, message]) => `${name} (${message})`).join(", ");
  throw new StartupProblem(
    `The configuration is invalid: ${list}. Fix the environment or .env (see .env.example) and start again.`,
  );
}
