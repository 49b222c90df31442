import { primaryDatabase } from "../src/db.js";
import { prismaOn } from "../src/graphql/prisma.js";

export { Prisma } from "../src/generated/prisma/client.js";

/**
 * Prisma on the test process's database (test/setup/open-database.ts opened it), as GraphQL's reads
 * use it: how tests make rows the API has no call for, and read back what a call wrote.
 */
export const db = prismaOn(primaryDatabase());
