import { PrismaPg } from "@prisma/adapter-pg";
import type { Database } from "../db.js";
import { PrismaClient } from "../generated/prisma/client.js";

export type { PrismaClient };

const clients = new WeakMap<Database["pool"], PrismaClient>();

/**
 * Prisma on one of the process's databases, through its pool: what GraphQL's reads resolve through
 * (plugin-prisma), made when the first call reads there. Only the API loads Prisma's client; the
 * worker and the CLI reach PostgreSQL through the query builder alone, and start without it.
 */
export function prismaOn({ pool }: Database): PrismaClient {
  let client = clients.get(pool);
  if (!client) clients.set(pool, (client = new PrismaClient({ adapter: new PrismaPg(pool) })));
  return client;
}
