import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

/** `npm run test:browser`: GraphiQL in Debian's Chromium, against the same test databases as `npm test`. */
export default mergeConfig(
  { ...base, test: { ...base.test, projects: undefined } },
  defineConfig({
    // A test takes a few page loads and steps, each of which may wait up to a minute (test/browser/chromium.ts).
    test: { include: ["test/browser/**/*.test.ts"], setupFiles: ["test/setup/open-database.ts"], testTimeout: 120_000 },
  }),
);
