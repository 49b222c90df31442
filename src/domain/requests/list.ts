import { db, type Prisma } from "../../db.js";
import type { RequestStatus, TransactionType } from "../../generated/prisma/client.js";
import { requireMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ValidationError } from "../errors.js";
import { z } from "zod";
import { id, parseInput, UUID } from "../validation.js";

/** What a list cursor holds before base64: Pothos's prefix for a cursor on a string column, then the row's id. */
const CURSOR_PREFIX = "GPC:S:";

/**
 * The row id a list cursor (`after`, `before`) points at. Only a cursor exactly as a list issued it
 * is read: anything else is refused as BAD_REQUEST before it can reach the database.
 */
export function decodeListCursor(cursor: string): string {
  const text = Buffer.from(cursor, "base64").toString("utf8");
  const id = text.startsWith(CURSOR_PREFIX) ? text.slice(CURSOR_PREFIX.length) : "";
  if (Buffer.from(text, "utf8").toString("base64") !== cursor || !UUID.test(id)) {
    throw new ValidationError("BAD_REQUEST", "after and before must be cursors returned by this list.");
  }
  return id;
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
 * cursor, take and skip (and a resolver's include) and is spread into the query.
 */
export async function listRequests(ctx: DomainContext, given: RequestFilter, page: object = {}) {
  const { merchantId } = requireMerchant(ctx);
  // A clientId of any format that names nothing matches nothing; text with U+0000 is refused.
  const filter = { ...given, ...parseInput(requestFilterText, {}, { ...given, status: undefined }) };
  return db.paymentRequest.findMany({
    ...page,
    where: {
      merchantId,
      ...(filter.status?.length ? statusWhere(filter.status, ctx.now()) : {}),
      ...createdBetween(filter),
      ...(filter.externalReference ? { externalReference: filter.externalReference } : {}),
      ...(filter.clientId ? { clientId: filter.clientId } : {}),
      ...(filter.ledger ? { options: { some: { ledgerId: filter.ledger } } } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}

export interface TransactionFilter {
  type?: TransactionType | null;
  ledger?: string | null;
  createdFrom?: Date | null;
  createdTo?: Date | null;
}

/** The calling merchant's transactions, newest first, filtered (see listRequests for `page`). */
export async function listTransactions(ctx: DomainContext, given: TransactionFilter, page: object = {}) {
  const { merchantId } = requireMerchant(ctx);
  const filter = { ...given, ...parseInput(transactionFilterText, {}, { ...given, type: undefined }) };
  return db.transaction.findMany({
    ...page,
    where: {
      merchantId,
      ...(filter.type ? { type: filter.type } : {}),
      ...(filter.ledger ? { ledgerId: filter.ledger } : {}),
      ...createdBetween(filter),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}
