/**
 * Runs the documents' shell examples as a reader pastes them: in bash, where `npm run [--silent]
 * admin -- …` is the operator CLI from the run's build (test/built.ts), as that script runs it
 * (scripts/run-bundled.js). npm's other commands are not run.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { built } from "../built.js";

const prelude = `set -o pipefail
npm() {
  [ "$1" = run ] || { echo "not the CLI: npm $*" >&2; return 127; }
  shift; [ "$1" = --silent ] && shift
  [ "$1" = admin ] || { echo "not the CLI: npm run $*" >&2; return 127; }
  shift; [ "$1" = -- ] && shift
  node $PAYREQ_ADMIN "$@"
}
`;

/** Runs `script` in bash in `cwd`, with the test's environment and `env`; its exit code and output. */
export async function bash(script: string, cwd: string, env: NodeJS.ProcessEnv = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)("bash", ["-c", `${prelude}${script}`], {
      cwd,
      env: { ...process.env, ...env, PAYREQ_ADMIN: built("src/cli/admin.ts").join(" ") },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
