/** `npm run setup`'s last step (before tests, builds and code generation): the Prisma client, when stale. */
import { projectRoot } from "./entrypoints.js";
import { ensureGeneratedClient } from "./generated-client.js";

if (await ensureGeneratedClient(projectRoot)) console.log("payreq: generated the Prisma client");
