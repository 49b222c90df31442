import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

/** Browser test files that run a worker: each in a database of its own, as the worker's files are (vitest.config.ts). */
const OWN_DATABASE = ["test/browser/console-webhooks.test.ts"];

/** `npm run test:browser`: the pages in Debian's Chromium, against the same test databases as `npm test`. */
export default mergeConfig(
  { ...base, test: { ...base.test, projects: undefined } },
  defineConfig({
    // A test takes a few page loads and steps, each of which may wait up to a minute (test/browser/chromium.ts).
    test: {
      testTimeout: 120_000,
      projects: [
        {
          extends: true,
          test: {
            name: "browser",
            include: ["test/browser/**/*.test.ts"],
            exclude: OWN_DATABASE,
            setupFiles: ["test/setup/open-database.ts"],
            // As the API's files (vitest.config.ts): one app and one Playwright per process, not
            // loaded again for each file.
            isolate: false,
          },
        },
        {
          extends: true,
          test: {
            name: "browser-own-database",
            include: OWN_DATABASE,
            setupFiles: ["test/setup/worker-database.ts", "test/setup/open-database.ts"],
          },
        },
      ],
    },
  }),
);
