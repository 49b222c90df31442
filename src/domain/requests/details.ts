import type { Prisma } from "../../db.js";

/** What the transports show of a request: its options in order and, once paid, its purchase. */
export const requestDetails = {
  options: { orderBy: { index: "asc" } },
  transactions: { where: { type: "PURCHASE" } },
} satisfies Prisma.PaymentRequestInclude;

export type RequestDetails = Prisma.PaymentRequestGetPayload<{ include: typeof requestDetails }>;

/** A Prisma `include` handed down by a GraphQL resolver, so a read loads what the query selects. */
export type RequestQuery = { include?: Prisma.PaymentRequestInclude };
