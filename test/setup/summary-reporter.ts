import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, relative } from "node:path";
import type { Reporter, SerializedError, TestModule, TestRunEndReason } from "vitest/node";

/** A failed test as the end of `npm test` names it: its file, its name and the start of its error (see excerpt). */
export interface FailedTest {
  file: string;
  name: string;
  error: string;
}

/**
 * Ends the run with the plain "N passed, N failed" line that CI reads. Under `npm test`, which runs
 * vitest three times, it also adds the counts and the failed tests to PAYREQ_TEST_TALLY, so that the
 * command ends with the total and every failure's name, whichever run it was in: CI keeps only the
 * end of a long output.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const failures: FailedTest[] = [];
    for (const module of testModules) {
      const file = relative(process.cwd(), module.moduleId);
      let failedTests = 0;
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === "passed" || result.state === "failed" || result.state === "skipped") counts[result.state] += 1;
        if (result.state === "failed") {
          failedTests += 1;
          failures.push({ file, name: test.fullName, error: excerpt(result.errors[0]?.message) });
        }
      }
      // A file that failed outside its tests (a hook, an import) is a failure even if no test failed.
      if (module.state() === "failed" && failedTests === 0) {
        counts.failed += 1;
        failures.push({ file, name: "(the file, outside its tests)", error: excerpt(module.errors()[0]?.message) });
      }
    }
    // An error no test caught (a timer's, a process's) fails the run as much as a failed test does.
    for (const error of unhandledErrors) {
      counts.failed += 1;
      failures.push({ file: "(no file)", name: "an unhandled error", error: excerpt(error.message) });
    }
    if (reason === "failed" && counts.failed === 0) {
      counts.failed += 1;
      failures.push({ file: "(no file)", name: "the run itself (its setup, or a file that could not run)", error: "" });
    }
    console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
    const tally = process.env["PAYREQ_TEST_TALLY"];
    if (tally) {
      mkdirSync(dirname(tally), { recursive: true });
      appendFileSync(tally, `${JSON.stringify({ node: process.version, ...counts, failures })}\n`);
    }
  }
}

/**
 * An error's first 40 lines, 4,000 characters at most: what a failure says of itself (a test that
 * waited in vain tells where everything stood, the worker's log lines among it) still reaches the
 * end of a long output, which is what CI keeps.
 */
function excerpt(message: string | undefined): string {
  return (message ?? "").split("\n").slice(0, 40).join("\n").slice(0, 4_000);
}
