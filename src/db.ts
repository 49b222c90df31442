import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/prisma/client.js";
import { config } from "./config.js";

export { Prisma } from "./generated/prisma/client.js";

/**
 * One pg pool for the process. Prisma runs on it through the driver adapter; the few hot-path
 * reads that measurements showed Prisma's per-query cost dominating (bench/) use it directly.
 */
export const pool = new pg.Pool({ connectionString: config.db.url, max: 20 });

/** The process's single Prisma client (see shared/notes/prisma-offline.md). */
export const db = new PrismaClient({ adapter: new PrismaPg(pool) });

export type Db = typeof db;

/** A client bound to an interactive transaction, as handed to `db.$transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
