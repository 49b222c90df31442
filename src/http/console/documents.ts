import { persistedDocuments } from "../../graphql/console-calls.js";
import persisted from "./app/gql/persisted-documents.json" with { type: "json" };

/** The console's persisted documents (app/operations/, compiled by codegen.ts). */
const documents = persistedDocuments(persisted);
/** By hash: what a console session may run. */
export const consoleDocuments = documents.byHash;
/** Each operation's hash, by its name (the app sends the hash its generated document carries). */
export const documentHashes = documents.hashes;
