import type { ExpressionBuilder, SelectQueryBuilder } from "kysely";
import type { DB } from "../../generated/kysely/database.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import type { RequestStatus, Transaction, TransactionType } from "../../generated/prisma/client.js";
import { requireMerchant } from "../auth.js";
import { dashboardDatabase, type DomainContext } from "../context.js";
import { connectionCursors } from "../cursors.js";
import { z } from "zod";
import { id, optional, parseInput, text } from "../validation.js";
import { findRequestDetailsByIds, type RequestDetails } from "./aggregate.js";

/**
 * A page of a list, newest first: at most `take` rows after the row `cursorId` (with a negative
 * `take`, the `-take` rows before it, in the list's order, as plugin-prisma pages backwards). A page
 * starts only at one of the merchant's own rows of the list it pages: a cursor of another list, or
 * of another merchant, is refused as any cursor the list did not issue (connectionCursors,
 * src/domain/cursors.ts: an empty page would tell that the row exists elsewhere). Any filter of the
 * same list may page from it: it is a position in the same order.
 */
export interface ListPage {
  take?: number;
  cursorId?: string;
}

/** A list's rows (`row`, a payment request or a transaction), selecting R: what readPage pages, whichever the table. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type List<R = any> = SelectQueryBuilder<any, "row", R>;

/**
 * Reads `list` (rows of `table` aliased `row`, filtered) as a page: ordered by (createdAt, id), after
 * (or before) the cursor's row by that position, whether or not that row matches the filter, so a
 * cursor row that no longer matches (a request paid since, or a cursor taken under another filter)
 * costs no other row its place. A backward page is read nearest the cursor first and handed back in
 * the list's order. Refuses a cursor that is not one of the merchant's rows of the table.
 */
async function readPage<R>(
  database: QueryBuilder,
  table: "paymentRequest" | "transaction",
  merchantId: string,
  { take, cursorId }: ListPage,
  list: List<R>,
): Promise<R[]> {
  const backward = take !== undefined && take < 0;
  const order = backward ? "asc" : "desc";
  let page = list.orderBy("row.createdAt", order).orderBy("row.id", order);
  if (take !== undefined) page = page.limit(Math.abs(take));
  const cursor = () => database.selectFrom(`${table} as c` as "transaction as c").where("c.id", "=", cursorId!);
  if (cursorId !== undefined)
    page = page.where((eb) =>
      eb(
        eb.refTuple("row.createdAt", "row.id"),
        backward ? ">" : "<",
        cursor().select(["c.createdAt", "c.id"]).$asTuple("createdAt", "id"),
      ),
    );
  const [rows, known] = await Promise.all([
    page.execute() as Promise<R[]>,
    cursorId === undefined || cursor().select("c.id").where("c.merchantId", "=", merchantId).executeTakeFirst(),
  ]);
  if (!known) throw connectionCursors.notThisList();
  return backward ? rows.reverse() : rows;
}

/** The text of a request filter, checked before it reaches the database. */
const requestFilterText = z.object({
  clientId: id.nullish(),
  externalReference: z.string().max(128).nullish(),
  ledger: z.string().max(128).nullish(),
  text: optional(text(128)),
});
const transactionFilterText = z.object({ ledger: z.string().max(128).nullish() });

/** `createdAt` within [createdFrom, createdTo), either end optional. */
function createdBetween<Q extends List>(
  list: Q,
  { createdFrom, createdTo }: { createdFrom?: Date | null; createdTo?: Date | null },
): Q {
  let within = list;
  if (createdFrom) within = within.where("row.createdAt", ">=", createdFrom) as Q;
  if (createdTo) within = within.where("row.createdAt", "<", createdTo) as Q;
  return within;
}

export interface RequestFilter {
  status?: RequestStatus[] | null;
  createdFrom?: Date | null;
  createdTo?: Date | null;
  externalReference?: string | null;
  clientId?: string | null;
  ledger?: string | null;
  /** In the description or the external reference, in any case. */
  text?: string | null;
}

/** `text` as a LIKE pattern that matches it anywhere, its own `%`, `_` and `\` taken literally. */
const containing = (given: string) => `%${given.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Requests in any of `statuses`, as a payer sees them now: a NEW request past its expiry is EXPIRED. */
const inStatuses = (statuses: RequestStatus[], now: Date) => (eb: ExpressionBuilder<DB & { row: DB["paymentRequest"] }, "row">) =>
  eb.or(
    statuses.map((status) =>
      status === "NEW"
        ? eb.and([eb("row.status", "=", "NEW"), eb("row.expiresAt", ">", now)])
        : status === "EXPIRED"
          ? eb.or([eb("row.status", "=", "EXPIRED"), eb.and([eb("row.status", "=", "NEW"), eb("row.expiresAt", "<=", now)])])
          : eb("row.status", "=", status),
    ),
  );

/**
 * The calling merchant's payment requests, newest first, filtered, a page of them: the page's ids,
 * then the requests read as every request is (aggregate.ts), in one statement.
 */
export async function listRequests(ctx: DomainContext, given: RequestFilter, page: ListPage = {}): Promise<RequestDetails[]> {
  const { merchantId } = requireMerchant(ctx);
  // A clientId of any format that names nothing matches nothing; text with U+0000 is refused.
  const filter = { ...given, ...parseInput(requestFilterText, {}, { ...given, status: undefined }) };
  const { database } = await dashboardDatabase(ctx);
  let list = database.selectFrom("paymentRequest as row").select("row.id").where("row.merchantId", "=", merchantId);
  if (filter.status?.length) list = list.where(inStatuses(filter.status, ctx.now()));
  list = createdBetween(list, filter);
  if (filter.externalReference) list = list.where("row.externalReference", "=", filter.externalReference);
  if (filter.clientId) list = list.where("row.clientId", "=", filter.clientId);
  if (filter.text) {
    const pattern = containing(filter.text);
    list = list.where((eb) => eb.or([eb("row.description", "ilike", pattern), eb("row.externalReference", "ilike", pattern)]));
  }
  const { ledger } = filter;
  if (ledger)
    list = list.where((eb) =>
      eb.exists(
        eb
          .selectFrom("paymentOption as o")
          .select("o.requestId")
          .whereRef("o.requestId", "=", "row.id")
          .where("o.ledgerId", "=", ledger),
      ),
    );
  const rows = await readPage(database, "paymentRequest", merchantId, page, list);
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
  const { database } = await dashboardDatabase(ctx);
  let list = database.selectFrom("transaction as row").selectAll("row").where("row.merchantId", "=", merchantId);
  if (filter.type) list = list.where("row.type", "=", filter.type);
  if (filter.ledger) list = list.where("row.ledgerId", "=", filter.ledger);
  list = createdBetween(list, filter);
  return readPage(database, "transaction", merchantId, page, list);
}
