import type { Prisma } from "../../db.js";
import type { RequestStatus, Transaction, TransactionType } from "../../generated/prisma/client.js";
import { requireMerchant } from "../auth.js";
import { dashboardDatabase, type DomainContext } from "../context.js";
import { connectionCursors } from "../cursors.js";
import { z } from "zod";
import { id, parseInput } from "../validation.js";
import { findRequestDetailsByIds, type RequestDetails } from "./aggregate.js";

/**
 * A page of a list, newest first: at most `take` rows after the row `cursorId` (with a negative
 * `take`, the rows before it, nearest first, as Prisma reads a cursor). A page starts only at one of
 * the merchant's own rows of the list it pages: a cursor of another list, or of another merchant, is
 * refused as any cursor the list did not issue (connectionCursors, src/domain/cursors.ts: an empty
 * page would tell that the row exists elsewhere). Any filter of the same list may page from it: it
 * is a position in the same order.
 */
export interface ListPage {
  take?: number;
  cursorId?: string;
}

/**
 * The page as Prisma queries it. The cursor's row is left out by id rather than skipped, so a
 * cursor row that does not match the filter (a request paid since, or a cursor taken under another
 * filter) does not cost the next row its place.
 */
function startingAt({ take, cursorId }: ListPage): {
  page: { take?: number; cursor?: { id: string } };
  notCursor: { id?: { not: string } };
} {
  if (cursorId === undefined) return { page: { take }, notCursor: {} };
  return { page: { take, cursor: { id: cursorId } }, notCursor: { id: { not: cursorId } } };
}

/** The text of a request filter, checked before it reaches the database. */
const requestFilterText = z.object({
  clientId: id.nullish(),
  externalReference: z.string().max(128).nullish(),
  ledger: z.string().max(128).nullish(),
});
const transactionFilterText = z.object({ ledger: z.string().max(128).nullish() });

/** `createdAt` within [createdFrom, createdTo), either end optional. */
function createdBetween({ createdFrom, createdTo }: { createdFrom?: Date | null; createdTo?: Date | null }) {
  if (!createdFrom && !createdTo) return {};
  return { createdAt: { ...(createdFrom ? { gte: createdFrom } : {}), ...(createdTo ? { lt: createdTo } : {}) } };
}

export interface RequestFilter {
  status?: RequestStatus[] | null;
  createdFrom?: Date | null;
  createdTo?: Date | null;
  externalReference?: string | null;
  clientId?: string | null;
  ledger?: string | null;
}

/** Where a status reads as it does: an overdue NEW request reads EXPIRED, so filters follow that. */
function statusWhere(statuses: RequestStatus[], now: Date): Prisma.PaymentRequestWhereInput {
  return {
    OR: statuses.map((status) =>
      status === "NEW"
        ? { status: "NEW", expiresAt: { gt: now } }
        : status === "EXPIRED"
          ? { OR: [{ status: "EXPIRED" }, { status: "NEW", expiresAt: { lte: now } }] }
          : { status },
    ),
  };
}

/**
 * The calling merchant's payment requests, newest first, filtered, a page of them. Prisma finds the page's ids (the filters are its `where`); the requests are
 * then read as every request is (aggregate.ts), in one statement.
 */
export async function listRequests(ctx: DomainContext, given: RequestFilter, page: ListPage = {}): Promise<RequestDetails[]> {
  const { merchantId } = requireMerchant(ctx);
  // A clientId of any format that names nothing matches nothing; text with U+0000 is refused.
  const filter = { ...given, ...parseInput(requestFilterText, {}, { ...given, status: undefined }) };
  const start = startingAt(page);
  const { db, database } = await dashboardDatabase(ctx);
  const [rows, cursorRow] = await Promise.all([
    db.paymentRequest.findMany({
      ...start.page,
      select: { id: true },
      where: {
        merchantId,
        ...start.notCursor,
        ...(filter.status?.length ? statusWhere(filter.status, ctx.now()) : {}),
        ...createdBetween(filter),
        ...(filter.externalReference ? { externalReference: filter.externalReference } : {}),
        ...(filter.clientId ? { clientId: filter.clientId } : {}),
        ...(filter.ledger ? { options: { some: { ledgerId: filter.ledger } } } : {}),
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    }),
    page.cursorId === undefined ||
      db.paymentRequest.findFirst({ where: { id: page.cursorId, merchantId }, select: { id: true } }),
  ]);
  if (!cursorRow) throw connectionCursors.notThisList();
  return findRequestDetailsByIds(
    rows.map((row) => row.id),
    database,
  );
}

export interface TransactionFilter {
  type?: TransactionType | null;
  ledger?: string | null;
  createdFrom?: Date | null;
  createdTo?: Date | null;
}

/** The calling merchant's transactions, newest first, filtered, a page of them. */
export async function listTransactions(
  ctx: DomainContext,
  given: TransactionFilter,
  page: ListPage = {},
): Promise<Transaction[]> {
  const { merchantId } = requireMerchant(ctx);
  const filter = { ...given, ...parseInput(transactionFilterText, {}, { ...given, type: undefined }) };
  const start = startingAt(page);
  const { db } = await dashboardDatabase(ctx);
  const [rows, cursorRow] = await Promise.all([
    db.transaction.findMany({
      ...start.page,
      where: {
        merchantId,
        ...start.notCursor,
        ...(filter.type ? { type: filter.type } : {}),
        ...(filter.ledger ? { ledgerId: filter.ledger } : {}),
        ...createdBetween(filter),
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    }),
    page.cursorId === undefined || db.transaction.findFirst({ where: { id: page.cursorId, merchantId }, select: { id: true } }),
  ]);
  if (!cursorRow) throw connectionCursors.notThisList();
  return rows;
}
