import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

/** `npm run test:browser`: GraphiQL in Debian's Chromium, against the same test databases as `npm test`. */
export default mergeConfig(
  { ...base, test: { ...base.test, projects: undefined } },
  defineConfig({
    test: { include: ["test/browser/**/*.test.ts"], setupFiles: ["test/setup/open-database.ts"], testTimeout: 60_000 },
  }),
);
