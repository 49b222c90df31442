import { db, type Prisma } from "../../db.js";
import type { RequestStatus, TransactionType } from "../../generated/prisma/client.js";
import { requireMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ValidationError } from "../errors.js";
import { z } from "zod";
import { id, parseInput } from "../validation.js";
import { findRequestDetailsByIds, type RequestDetails } from "./aggregate.js";

/**
 * A page starts only at one of the merchant's own rows of the list it pages: a cursor of another
 * list, or of another merchant, is BAD_REQUEST (an empty page would tell that the row exists
 * elsewhere). Any filter of the same list may page from it: it is a position in the same order.
 */
const notThisList = () => new ValidationError("BAD_REQUEST", "after and before must be cursors returned by this list.");

/**
 * A page as it is queried, and the id of the row it starts at (if any). The cursor's row is left
 * out by id rather than skipped (Pothos asks to skip one row), so a cursor row that does not match
 * the filter (a request paid since, or a cursor taken under another filter) does not cost the
 * next row its place.
 */
function startingAt<Page extends { cursor?: { id?: string } | null }>(page: Page) {
  if (!page.cursor) return { page, cursorId: null, notCursor: {} };
  const { id } = page.cursor;
  if (!id) throw notThisList();
  return { page: { ...page, skip: 0 }, cursorId: id, notCursor: { id: { not: id } } };
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
 * The calling merchant's payment requests, newest first, filtered; `page` carries a connection's
 * cursor, take and skip. Prisma finds the page's ids (the filters are its `where`); the requests are
 * then read as every request is (aggregate.ts), in one statement.
 */
export async function listRequests(
  ctx: DomainContext,
  given: RequestFilter,
  { take, skip, cursor }: Pick<Prisma.PaymentRequestFindManyArgs, "take" | "skip" | "cursor"> = {},
): Promise<RequestDetails[]> {
  const { merchantId } = requireMerchant(ctx);
  // A clientId of any format that names nothing matches nothing; text with U+0000 is refused.
  const filter = { ...given, ...parseInput(requestFilterText, {}, { ...given, status: undefined }) };
  const start = startingAt({ take, skip, cursor });
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
    start.cursorId === null || db.paymentRequest.findFirst({ where: { id: start.cursorId, merchantId }, select: { id: true } }),
  ]);
  if (!cursorRow) throw notThisList();
  return findRequestDetailsByIds(rows.map((row) => row.id));
}

export interface TransactionFilter {
  type?: TransactionType | null;
  ledger?: string | null;
  createdFrom?: Date | null;
  createdTo?: Date | null;
}

/** The calling merchant's transactions, newest first, filtered (see listRequests for `page`). */
export async function listTransactions(
  ctx: DomainContext,
  given: TransactionFilter,
  page: Omit<Prisma.TransactionFindManyArgs, "where" | "orderBy"> = {},
) {
  const { merchantId } = requireMerchant(ctx);
  const filter = { ...given, ...parseInput(transactionFilterText, {}, { ...given, type: undefined }) };
  const start = startingAt(page);
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
    start.cursorId === null || db.transaction.findFirst({ where: { id: start.cursorId, merchantId }, select: { id: true } }),
  ]);
  if (!cursorRow) throw notThisList();
  return rows;
}
