import type { Prisma, Transaction } from "../generated/prisma/client.js";
import type { PrismaClient } from "./prisma.js";

/** What an operation selects of a transaction, as plugin-prisma hands it to a resolver. */
type Selection = { include?: Prisma.TransactionInclude };

/**
 * Transactions the domain chose, read again on `db` (where the domain read them) with what the
 * operation selects of them, in their order. plugin-prisma loads a relation missing from a row
 * itself, but not what a field of the row selects (`refundableAmount` sums the refunds), so rows
 * from the domain are read once more here.
 */
export async function selectedTransactions(
  db: PrismaClient,
  { include }: Selection,
  rows: Transaction[],
): Promise<Transaction[]> {
  if (!rows.length) return rows;
  const selected = await db.transaction.findMany({
    include,
    where: { id: { in: rows.map((row) => row.id) } },
  });
  const byId = new Map(selected.map((row) => [row.id, row]));
  return rows.map((row) => byId.get(row.id) ?? row);
}
