import type { CodegenConfig } from "@graphql-codegen/cli";
import { printSchema } from "graphql";
import { schema } from "./src/graphql/schema.js";

/**
 * `npm run generate`: the committed SDL (schema.graphql) from the code-first schema, and typed
 * documents (test/gql/) for the operations the tests and dashboards send.
 */
const config: CodegenConfig = {
  schema: printSchema(schema),
  // Where the operations are written (`graphql(...)`): only these files are read for them, since
  // parsing every test file to find them cost `npm test`'s check of the generated files seconds.
  documents: ["test/operations/*.ts", "test/graphql/*.test.ts"],
  ignoreNoDocuments: true,
  importExtension: ".js",
  generates: {
    "schema.graphql": { plugins: ["schema-ast"] },
    "test/gql/": {
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: {
          Amount: { input: "number | string", output: "number" },
          ExpirySeconds: { input: "number | string", output: "number" },
          DateTime: "string",
          ID: "string",
        },
      },
    },
  },
};

export default config;
