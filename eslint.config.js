// @ts-check
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

/**
 * `npm run lint` and `npm test` (scripts/lint.js): typescript-eslint's type-checked rules over every
 * file tsc checks.
 * The rules kept are the ones that find bugs the type check lets through (a promise nobody awaits,
 * an async callback where a sync one is expected, a switch that misses a member of its union);
 * formatting is Prettier's and types are tsc's.
 */

/** The rules that follow an `any` through assignments, calls and returns. */
const unsafeAnyOff = Object.fromEntries(
  ["no-unsafe-argument", "no-unsafe-assignment", "no-unsafe-call", "no-unsafe-member-access", "no-unsafe-return"].map((rule) => [
    `@typescript-eslint/${rule}`,
    /** @type {const} */ ("off"),
  ]),
);

export default defineConfig(
  {
    ignores: [
      "node_modules/",
      "dist/",
      ".data/",
      "coverage/",
      "bench/results/",
      // Generated: the Prisma client and Pothos types (`npm run setup`), the typed documents (codegen.ts).
      "src/generated/",
      "test/gql/",
      "src/http/console/app/gql/",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // tsc checks every name (checkJs covers the JavaScript files too).
      "no-undef": "off",

      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        // A `default:` does not stand for a union's missing members: adding a member to a union
        // must point at every switch over it.
        { considerDefaultExhaustiveForUnions: false, allowDefaultCaseForExhaustiveSwitch: true },
      ],
      // A promise returned inside try/catch/finally without await skips the catch and runs the
      // finally before it settles.
      "@typescript-eslint/return-await": ["error", "in-try-catch"],
      // A deprecated API may go in the next release, and some announce their use on stdout (Kysely's
      // array orderBy), where the CLI's JSON is.
      "@typescript-eslint/no-deprecated": "error",
      // An async function without await is how a method returns the promise its interface asks for.
      "@typescript-eslint/require-await": "off",
      // no-base-to-string reports an object that would read "[object Object]"; what this one adds
      // here is a Buffer added to a string, which decodes it as UTF-8 as meant.
      "@typescript-eslint/restrict-plus-operands": "off",
      // Passing on what was caught, whatever it is, is allowed; rejecting with a string is not.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingUnknown: true }],
      // A `let` a callback reads before its one assignment (a timer it clears) stays a `let`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    // The service's code: a row's type comes from the schema (src/sql), never asserted; no function is
    // longer than a reader holds at once.
    files: ["src/**", "worker/**", "scripts/**", "bench/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name=/^(query|\\$queryRawUnsafe)$/][typeArguments]",
          message:
            "Write the statement with the query builder (src/sql), whose row types come from the schema, instead of asserting a row with query<T>().",
        },
        {
          selector: "TaggedTemplateExpression[tag.property.name='$queryRaw'][typeArguments]",
          message:
            "Write the statement with the query builder (src/sql), whose row types come from the schema, instead of asserting a row with $queryRaw<T>``.",
        },
      ],
      "max-lines-per-function": ["error", { max: 80 }],
    },
  },
  {
    // One way to reach PostgreSQL: the typed query builder (`database` in src/db.ts), whose statements
    // name only the schema's columns with values of their types; GraphQL's reads go through Prisma's
    // models (plugin-prisma). No statement as untyped text, on the pool or through Prisma.
    files: ["src/**", "worker/**"],
    ignores: ["src/sql/**", "src/db.ts", "src/generated/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { name: "pg", message: "Reach PostgreSQL through the query builder (`database` in src/db.ts)." },
        {
          name: "kysely",
          importNames: ["CompiledQuery"],
          message: "Write the statement with the query builder; a compiled query is text the types do not check.",
        },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[property.name=/^\\$(queryRaw|queryRawUnsafe|executeRaw|executeRawUnsafe)$/]",
          message: "Write the statement with the query builder (`database` in src/db.ts), not as Prisma's raw SQL.",
        },
        {
          selector: "MemberExpression[property.name='pool']",
          message: "Reach PostgreSQL through the query builder (`database` in src/db.ts), not the pool under it.",
        },
        {
          selector: "ImportSpecifier[imported.name=/^(pool|prepared)$/]",
          message: "Reach PostgreSQL through the query builder (`database` in src/db.ts), not the pool under it.",
        },
      ],
    },
  },
  {
    // The outbox listener's own client: LISTEN makes a session a listener for as long as it lives,
    // which a pooled connection cannot be. It runs no statement on a table.
    files: ["worker/outbox-listener.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    // The pay page's browser modules, outside the Node program tsconfig.json checks:
    // the rules that need no types, and the browser's globals (test/browser/ runs them in Chromium).
    files: ["src/http/pay/static/**/*.js"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { sourceType: "module", parserOptions: { projectService: false } },
  },
  {
    // JavaScript states its types in JSDoc (`@type` on a declaration, or a cast), which these rules do not read.
    files: ["**/*.js", "**/*.cjs"],
    rules: unsafeAnyOff,
  },
  {
    // A test reads answers as `any` (`await response.json()`) and asserts their shape with expect.
    files: ["test/**"],
    rules: { ...unsafeAnyOff, "@typescript-eslint/no-explicit-any": "off" },
  },
);
