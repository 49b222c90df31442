import { join } from "node:path";
import { inject } from "vitest";
import { testNodeFlags } from "../vitest.config.js";

/**
 * The node arguments that run one of the project's entry points (`src/api/server.ts`, `worker/index.ts`,
 * `src/cli/admin.ts`, …) from the run's bundles (test/setup/global.ts), as the image runs them, with the
 * test processes' V8 flags (vitest.config.ts).
 */
export const built = (entry: string): string[] => [...testNodeFlags, join(inject("build"), entry.replace(/\.ts$/, ".js"))];
