/**
 * The end of `npm test`: the counts of its vitest runs (this Node, Node 24, the browser test), added
 * up from PAYREQ_TEST_TALLY, which the summary reporter wrote, and every failed test by name, and
 * the static checks that failed (test/checks.sh). A run that ended without writing its line (it
 * crashed, or failed before its tests) counts as a failure.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import type { FailedTest } from "./summary-reporter.js";

const [file, expected] = [process.argv[2]!, Number(process.argv[3] ?? 0)];
interface Run {
  node: string;
  passed: number;
  failed: number;
  skipped: number;
  failures: FailedTest[];
}
const lines = (existsSync(file) ? readFileSync(file, "utf8") : "")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Run | { checks: string });
const runs = lines.filter((line): line is Run => "node" in line);
const failedChecks = lines.flatMap((line) => ("checks" in line ? line.checks.split(" ") : []));
rmSync(file, { force: true });
const total = { passed: 0, failed: 0, skipped: 0 };
for (const run of runs) for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += run[key];
console.log(`\nnpm test: ${runs.length} vitest runs (${runs.map((run) => `Node ${run.node}: ${run.passed}`).join(", ")})`);
for (const run of runs) {
  for (const failure of run.failures) {
    const error = failure.error.replaceAll("\n", "\n    ");
    console.log(`FAILED on Node ${run.node}: ${failure.file} > ${failure.name}\n    ${error}`);
  }
}
if (runs.length < expected)
  console.log(`${expected - runs.length} of the ${expected} vitest runs ended without a count: see its output above`);
if (failedChecks.length > 0) console.log(`FAILED checks: ${failedChecks.join(", ")} (test/checks.sh; see its output above)`);
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
if (total.failed > 0 || runs.length < expected || failedChecks.length > 0) process.exit(1);
