import type { CodegenConfig } from "@graphql-codegen/cli";
import { printSchema } from "graphql";
import { schema } from "./src/graphql/schema.js";

/**
 * `npm run generate`: the committed SDL (schema.graphql) from the code-first schema, and typed
 * documents (test/gql/) for the operations the tests and dashboards send, and the merchant console's
 * typed, persisted documents (src/http/console/app/gql/).
 */
const scalars = {
  Amount: { input: "number | string", output: "number" },
  ExpirySeconds: { input: "number | string", output: "number" },
  DateTime: "string",
  ID: "string",
};

const config: CodegenConfig = {
  schema: printSchema(schema),
  ignoreNoDocuments: true,
  importExtension: ".js",
  generates: {
    "schema.graphql": { plugins: ["schema-ast"] },
    "test/gql/": {
      // Where the operations are written (`graphql(...)`): only these files are read for them, since
      // parsing every test file to find them cost `npm test`'s check of the generated files seconds.
      documents: ["test/operations/*.ts", "test/graphql/*.test.ts"],
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars,
      },
    },
    // The merchant console's operations: typed, and persisted (persisted-documents.json, by hash),
    // the only documents a call authenticated by a console cookie may run.
    // The app's documents carry only their hash (replaceDocumentWithHash): the browser never sends a document's text.
    "src/http/console/app/gql/": {
      documents: ["src/http/console/app/operations/*.graphql"],
      preset: "client",
      presetConfig: {
        fragmentMasking: false,
        persistedDocuments: { hashAlgorithm: "sha256", mode: "replaceDocumentWithHash" },
      },
      config: { useTypeImports: true, enumsAsTypes: true, scalars },
    },
  },
};

export default config;
