import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends the run with the plain "N passed, N failed" line that CI reads. Under `npm test`, which runs
 * vitest three times, it also adds the counts to PAYREQ_TEST_TALLY for the total that ends the command.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed" || state === "failed" || state === "skipped") counts[state] += 1;
      }
      // A file that failed outside its tests (a hook, an import) is a failure even if no test failed.
      const failedTests = [...module.children.allTests()].filter((test) => test.result().state === "failed").length;
      if (module.state() === "failed" && failedTests === 0) counts.failed += 1;
    }
    console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
    const tally = process.env["PAYREQ_TEST_TALLY"];
    if (tally) {
      mkdirSync(dirname(tally), { recursive: true });
      appendFileSync(tally, `${JSON.stringify({ node: process.version, ...counts })}\n`);
    }
  }
}
