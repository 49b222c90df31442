import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client.js";
import { config } from "./config.js";

export { Prisma } from "./generated/prisma/client.js";

/** The process's single Prisma client, on the pg driver adapter (see shared/notes/prisma-offline.md). */
export const db = new PrismaClient({
  adapter: new PrismaPg({ connectionString: config.db.url }),
});

export type Db = typeof db;

/** A client bound to an interactive transaction, as handed to `db.$transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
