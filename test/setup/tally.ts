/**
 * The last line of `npm test`: the counts of its vitest runs (this Node, Node 24, the browser test),
 * added up from PAYREQ_TEST_TALLY, which the summary reporter wrote.
 */
import { readFileSync, rmSync } from "node:fs";

const file = process.argv[2]!;
const runs = readFileSync(file, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { node: string; passed: number; failed: number; skipped: number });
rmSync(file);
const total = { passed: 0, failed: 0, skipped: 0 };
for (const run of runs) for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += run[key];
console.log(`\nnpm test: ${runs.length} vitest runs (${runs.map((run) => `Node ${run.node}: ${run.passed}`).join(", ")})`);
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
if (total.failed > 0) process.exit(1);
