import { getTransaction } from "../../domain/transactions/info.js";
import { refundTransaction } from "../../domain/transactions/refund.js";
import { refundTransactionCodes, refundTransactionInput, transactionIdCodes } from "../../domain/transactions/schemas.js";
import { parameterCodes } from "../strict-variables.js";
import { builder } from "../builder.js";
import { idempotentMutation } from "../idempotent.js";
import { prismaOn } from "../prisma.js";
import { selectedTransactions } from "../selected-transactions.js";
import { merchantsOnly, readableByPayers } from "../visibility.js";
import { TransactionStateEnum, TransactionTypeEnum } from "../enums.js";

export const Transaction = builder.prismaObject("Transaction", {
  description:
    "A completed transfer: the PURCHASE that paid a request, or a REFUND of it. Payer keys read id, amount, ledger and createdAt.",
  ...merchantsOnly,
  fields: (t) => ({
    id: t.exposeID("id", {
      ...readableByPayers("Transaction", "id"),
      description: "The transactionId; refunds name the purchase by it.",
    }),
    transactionType: t.field({ type: TransactionTypeEnum, description: "PURCHASE or REFUND.", resolve: (tx) => tx.type }),
    state: t.field({ type: TransactionStateEnum, description: "COMPLETED once recorded.", resolve: (tx) => tx.state }),
    ledger: t.exposeString("ledgerId", {
      ...readableByPayers("Transaction", "ledger"),
      description: "Ledger the transfer took place on.",
    }),
    amount: t.field({
      ...readableByPayers("Transaction", "amount"),
      type: "Amount",
      description: "Minimum units transferred.",
      resolve: (tx) => tx.amount,
    }),
    account: t.exposeString("account", { description: "Account the transfer was made to; may be empty." }),
    authCode: t.exposeString("authCode", { description: "Shows that the ledger authorized the transfer." }),
    responseCode: t.exposeString("responseCode", { description: "The ledger's response code (00 approved)." }),
    paymentType: t.exposeString("paymentType", { description: "Payment type for reconciling settlement (the legacy `type`)." }),
    receipt: t.exposeString("receipt", { nullable: true, description: "Base64-encoded receipt to print for the payer." }),
    settlementDate: t.expose("settlementDate", { type: "DateTime", description: "When the transfer settles to the merchant." }),
    externalReference: t.exposeString("externalReference", {
      nullable: true,
      description: "For a refund: the merchant's reference.",
    }),
    purchase: t.relation("purchase", { nullable: true, description: "For a refund: the purchase it returns money from." }),
    refunds: t.relation("refunds", { description: "For a purchase: its refunds.", query: { orderBy: { createdAt: "asc" } } }),
    refundableAmount: t.field({
      type: "Amount",
      nullable: true,
      description: "For a purchase: what can still be refunded. Null for a refund.",
      select: { amount: true, type: true, refunds: { select: { amount: true } } },
      resolve: (tx) => (tx.type === "PURCHASE" ? tx.refunds.reduce((left, refund) => left - refund.amount, tx.amount) : null),
    }),
    createdAt: t.expose("createdAt", {
      ...readableByPayers("Transaction", "createdAt"),
      type: "DateTime",
      description: "When the transfer completed.",
    }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "Last change." }),
  }),
});

const TransactionRefundInput = builder.inputType("TransactionRefundInput", {
  description: "What to refund.",
  extensions: parameterCodes(refundTransactionCodes),
  fields: (t) => ({
    transactionId: t.id({ required: true, description: "The PURCHASE to refund." }),
    amount: t.field({ type: "Amount", required: true, description: "Minimum units to return to the payer." }),
    externalReference: t.string({
      description: "Unique per purchase. Without one a purchase is refunded once; with one, once per reference.",
    }),
  }),
});

builder.queryFields((t) => ({
  transaction: t.prismaField({
    type: "Transaction",
    description: "One of the merchant's transactions.",
    extensions: parameterCodes({ id: transactionIdCodes.transactionId }),
    args: { id: t.arg.id({ required: true, description: "The transactionId." }) },
    resolve: async (query, _root, args, ctx) => {
      const transaction = await getTransaction(await ctx.reads.domain(), { transactionId: args.id });
      const [selected] = await selectedTransactions(prismaOn(ctx.reads.settled()), query, [transaction]);
      return selected!;
    },
  }),
}));

builder.mutationFields((t) => ({
  transactionRefund: t.field({
    type: Transaction,
    description: "Return all or part of a purchase to the payer. Refunds never total more than the purchase.",
    args: {
      input: t.arg({ type: TransactionRefundInput, required: true, description: "Purchase, amount and reference." }),
      idempotencyKey: t.arg.string({ description: "Retries with the same key get the first outcome back (24 hours)." }),
    },
    errors: {},
    resolve: idempotentMutation({
      operation: "transactionRefund",
      schema: refundTransactionInput,
      run: refundTransaction,
      reload: (ctx, transactionId) => getTransaction(ctx, { transactionId }),
    }),
  }),
}));
