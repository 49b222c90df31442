import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { built } from "../built.js";

const run = promisify(execFile);

/**
 * Runs the operator CLI (`npm run admin -- …`) as an operator would, with these settings in its
 * environment beside the test's; its exit code and what it printed.
 */
export async function adminWith(settings: NodeJS.ProcessEnv, ...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, [...built("src/cli/admin.ts"), ...args], {
      env: { ...process.env, ...settings },
    });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
