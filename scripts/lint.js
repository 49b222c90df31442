// @ts-check
/**
 * `npm run lint` and `npm test`'s checks: the type check (tsconfig.json, as `tsc -p .`, and the
 * console's app, src/http/console/app/tsconfig.json) and ESLint's
 * rules (eslint.config.js) on one TypeScript program. typescript-eslint's typed rules would otherwise
 * build and check a program of their own, the same files again: this way the checker's work is done
 * once, and the two together cost what the type check alone did.
 *
 *   node scripts/lint.js    # exit 1 if either finds a problem; names which
 */
import { createRequire } from "node:module";
import { ESLint } from "eslint";

/** @type {typeof import("typescript")} */
const ts = createRequire(import.meta.url)("typescript");

const host = ts.sys;
/** The service's program, and the console's browser app, a program of its own (its DOM, its JSX). */
const programs = ["tsconfig.json", "src/http/console/app/tsconfig.json"].map((file) => {
  const config = ts.getParsedCommandLineOfConfigFile(file, {}, { ...host, onUnRecoverableConfigFileDiagnostic: report });
  if (!config) process.exit(1);
  return ts.createProgram({ rootNames: config.fileNames, options: config.options, configFileParsingDiagnostics: config.errors });
});

const failed = [];
const diagnostics = programs.flatMap((program) => ts.getPreEmitDiagnostics(program));
if (diagnostics.length > 0) {
  report(...diagnostics);
  failed.push("types");
}

// No cache of results: a typed rule's answer for a file depends on the files it imports.
const eslint = new ESLint({
  overrideConfig: [
    // The pay page's browser modules are outside the programs and linted without types (eslint.config.js).
    {
      ignores: ["src/http/pay/static/**"],
      languageOptions: { parserOptions: { projectService: false, programs } },
    },
  ],
});
const results = await eslint.lintFiles(["."]);
const formatted = await (await eslint.loadFormatter("stylish")).format(results);
if (formatted) process.stdout.write(formatted);
if (results.some((result) => result.errorCount > 0 || result.fatalErrorCount > 0)) failed.push("lint");

if (failed.length > 0) {
  console.error(`lint: ${failed.join(" and ")} failed`);
  process.exit(1);
}

/** @param {import("typescript").Diagnostic[]} found */
function report(...found) {
  const formatHost = {
    getCanonicalFileName: (/** @type {string} */ name) => name,
    getCurrentDirectory: () => host.getCurrentDirectory(),
    getNewLine: () => host.newLine,
  };
  process.stdout.write(
    (process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics)(found, formatHost),
  );
}
