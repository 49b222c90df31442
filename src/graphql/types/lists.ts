import type { FieldRef } from "@pothos/core";
import { z } from "zod";
import { connectionCursors, cursorParam } from "../../domain/cursors.js";
import { ValidationError } from "../../domain/errors.js";
import { CONNECTION_PAGE, pageSize } from "../../domain/page-size.js";
import { listRequests, listTransactions, type ListPage } from "../../domain/requests/list.js";
import { optional, parseInput } from "../../domain/validation.js";
import { builder } from "../builder.js";
import { RequestStatusEnum, TransactionTypeEnum } from "../enums.js";
import { prismaOn } from "../prisma.js";
import { selectedTransactions } from "../selected-transactions.js";

const RequestFilter = builder.inputType("RequestFilter", {
  description: "Narrows a list of payment requests; every field is optional.",
  fields: (t) => ({
    status: t.field({ type: [RequestStatusEnum], description: "Any of these statuses (as they read now)." }),
    createdFrom: t.field({ type: "DateTime", description: "Created at or after this." }),
    createdTo: t.field({ type: "DateTime", description: "Created before this." }),
    externalReference: t.string({ description: "The merchant's reference." }),
    clientId: t.id({ description: "Made under this client configuration." }),
    ledger: t.string({ description: "Offering a payment option at this ledger." }),
    text: t.string({ description: "Containing this text in the description or the external reference, in any case." }),
  }),
});

const TransactionFilter = builder.inputType("TransactionFilter", {
  description: "Narrows a list of transactions; every field is optional.",
  fields: (t) => ({
    type: t.field({ type: TransactionTypeEnum, description: "PURCHASE or REFUND." }),
    ledger: t.string({ description: "At this ledger." }),
    createdFrom: t.field({ type: "DateTime", description: "Completed at or after this." }),
    createdTo: t.field({ type: "DateTime", description: "Completed before this." }),
  }),
});

/** A page's cursors as the domain reads every text parameter: trimmed, and not given when empty once trimmed. */
const pageCursors = z.object({ after: optional(cursorParam), before: optional(cursorParam) });

/**
 * The page a Pothos connection asks for (`take`, and a cursor on the id column it then asks to
 * skip), as the domain's lists read a page.
 */
function listPage(query: { take?: number; cursor?: { id?: string } }): ListPage {
  if (!query.cursor) return { take: query.take };
  if (!query.cursor.id) throw connectionCursors.notThisList();
  return { take: query.take, cursorId: query.cursor.id };
}

/**
 * Reads a page's arguments before Pothos does: cursors are trimmed as every text parameter is (one
 * empty once trimmed is not given); a forged cursor, a `first` or `last` outside 1 to the most
 * (which Pothos would clamp), and the pairs Pothos does not page with (`after` with `before` or
 * `last`, `before` with `first`) are then BAD_REQUEST, rather than a Pothos error without a code, or
 * a database error once Prisma uses the cursor.
 */
function refusingBadPages<R extends FieldRef<typeof builder.$inferSchemaTypes>>(ref: R): R {
  ref.updateConfig((config) => ({
    ...config,
    argMappers: [
      ...config.argMappers,
      (given) => {
        const { after, before } = parseInput(pageCursors, {}, { after: given.after, before: given.before });
        const args: Record<string, unknown> = { ...given, after, before };
        for (const name of ["first", "last"] as const) pageSize(name, args[name] as number | null | undefined, CONNECTION_PAGE);
        const has = (name: string) => args[name] !== null && args[name] !== undefined;
        for (const [one, other] of [
          ["after", "before"],
          ["after", "last"],
          ["before", "first"],
        ] as const)
          if (has(one) && has(other)) throw new ValidationError("BAD_REQUEST", `${one} and ${other} cannot be given together.`);
        for (const cursor of [args.after, args.before]) if (typeof cursor === "string") connectionCursors.decode(cursor);
        return args;
      },
    ],
  }));
  return ref;
}

builder.queryFields((t) => ({
  paymentRequests: refusingBadPages(
    t.prismaConnection(
      {
        type: "PaymentRequest",
        cursor: "id",
        defaultSize: CONNECTION_PAGE.default,
        maxSize: CONNECTION_PAGE.max,
        description: "The merchant's payment requests, newest first (Relay cursor pagination).",
        args: { filter: t.arg({ type: RequestFilter, description: "Optional filters." }) },
        resolve: async (query, _root, args, ctx) => listRequests(await ctx.reads.domain(), args.filter ?? {}, listPage(query)),
      },
      { description: "A page of payment requests." },
      { description: "A payment request and its cursor." },
    ),
  ),
  transactions: refusingBadPages(
    t.prismaConnection(
      {
        type: "Transaction",
        cursor: "id",
        defaultSize: CONNECTION_PAGE.default,
        maxSize: CONNECTION_PAGE.max,
        description: "The merchant's transactions, newest first (Relay cursor pagination).",
        args: { filter: t.arg({ type: TransactionFilter, description: "Optional filters." }) },
        resolve: async (query, _root, args, ctx) => {
          const rows = await listTransactions(await ctx.reads.domain(), args.filter ?? {}, listPage(query));
          return selectedTransactions(prismaOn(ctx.reads.settled()), query, rows);
        },
      },
      { description: "A page of transactions." },
      { description: "A transaction and its cursor." },
    ),
  ),
}));
