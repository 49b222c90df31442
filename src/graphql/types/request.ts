import { cancelRequest } from "../../domain/requests/cancel.js";
import { createRequest } from "../../domain/requests/create.js";
import { getRequest } from "../../domain/requests/info.js";
import type { RequestDetails } from "../../domain/requests/aggregate.js";
import { payRequest } from "../../domain/requests/pay.js";
import {
  cancelRequestInput,
  createRequestCodes,
  createRequestInput,
  payRequestCodes,
  payRequestInput,
  requestIdCodes,
} from "../../domain/requests/schemas.js";
import { parameterCodes } from "../strict-variables.js";
import { effectiveStatus } from "../../domain/requests/status.js";
import type { DomainContext } from "../../domain/context.js";
import { requireMerchant } from "../../domain/auth.js";
import type { RequestChange } from "../../domain/requests/changes.js";
import { filter, pipe } from "graphql-yoga";
import { builder } from "../builder.js";
import { idempotentMutation } from "../idempotent.js";
import { PaymentMethodEnum, RequestStatusEnum } from "../enums.js";
import { Transaction } from "./transaction.js";
import { NOTIFICATIONS, WebhookEvent } from "./webhook-event.js";
import { merchantsOnly, readableByPayers } from "../visibility.js";

const Denomination = builder.objectRef<{ asset: string; amount: bigint }>("Denomination").implement({
  description: "What a request asks for: an amount of an asset.",
  fields: (t) => ({
    asset: t.exposeString("asset", { description: "Currency or asset class, e.g. NZD." }),
    amount: t.field({ type: "Amount", description: "Amount in minimum divisible units.", resolve: (d) => d.amount }),
  }),
});

const PaymentOption = builder.prismaObject("PaymentOption", {
  description: "One way to satisfy a request: an amount at a ledger.",
  fields: (t) => ({
    ledger: t.exposeString("ledgerId", { description: "Ledger at which the transfer is recorded." }),
    amount: t.field({
      type: "Amount",
      description: "Amount of the ledger's asset that pays the request in full.",
      resolve: (o) => o.amount,
    }),
    account: t.exposeString("account", { nullable: true, description: "Account the transfer is made to, if any." }),
    methods: t.field({ type: [PaymentMethodEnum], description: "How payment can be initiated.", resolve: (o) => o.methods }),
  }),
});

export const PaymentRequest = builder.prismaObject("PaymentRequest", {
  description: "A merchant's request for payment. Payer keys read its payment-facing fields only.",
  ...merchantsOnly,
  fields: (t) => ({
    id: t.exposeID("id", { ...readableByPayers("PaymentRequest", "id"), description: "The requestId." }),
    merchantId: t.exposeID("merchantId", {
      ...readableByPayers("PaymentRequest", "merchantId"),
      description: "Merchant that issued the request.",
    }),
    clientId: t.exposeID("clientId", { nullable: true, description: "Client configuration the request was made under." }),
    externalReference: t.exposeString("externalReference", { nullable: true, description: "The merchant's unique reference." }),
    denomination: t.field({
      ...readableByPayers("PaymentRequest", "denomination"),
      type: Denomination,
      description: "Amount and asset requested.",
      resolve: (request) => ({ asset: request.asset, amount: request.amount }),
    }),
    description: t.exposeString("description", {
      ...readableByPayers("PaymentRequest", "description"),
      nullable: true,
      description: "The merchant's description.",
    }),
  }),
});

// Its options, its purchase and what followed it.
builder.prismaObjectFields(PaymentRequest, (t) => ({
  // The request's own parts: every read of a request (aggregate.ts) loads them in its one statement.
  payments: t.field({
    ...readableByPayers("PaymentRequest", "payments"),
    type: [PaymentOption],
    description: "Payment options, in the merchant's order.",
    resolve: (request) => detailsOf(request).options,
  }),
  paidBy: t.field({
    ...readableByPayers("PaymentRequest", "paidBy"),
    type: Transaction,
    nullable: true,
    description: "The purchase that paid the request; null until paid.",
    resolve: (request) => detailsOf(request).purchase,
  }),
  // Not part of the aggregate: plugin-prisma loads them when selected, one query per request.
  refunds: t.relation("transactions", {
    description: "Refunds of the request's purchase, oldest first.",
    query: { where: { type: "REFUND" }, orderBy: { createdAt: "asc" } },
  }),
  webhookEvents: t.relation("deliveries", {
    description: "Notifications of the request's transactions to its notifyUrl, oldest first.",
    query: { where: NOTIFICATIONS, orderBy: { createdAt: "asc" } },
  }),
}));

// How a payer reaches it, and where it sends them and the merchant afterwards.
builder.prismaObjectFields(PaymentRequest, (t) => ({
  requestCode: t.exposeString("requestCode", {
    ...readableByPayers("PaymentRequest", "requestCode"),
    description: "Code shown as a QR code or sent to a wallet over NFC.",
  }),
  shortCode: t.exposeString("shortCode", {
    ...readableByPayers("PaymentRequest", "shortCode"),
    description: "PR-XXX-XXX: for a person to read aloud and type on the pay page (no 0, 1, I, L or O).",
  }),
  payUrl: t.string({
    ...readableByPayers("PaymentRequest", "payUrl"),
    description: "The request's hosted pay page, where a person pays it in a browser; its QR code encodes this.",
    resolve: (request, _args, ctx) => ctx.links.payUrl(request.requestCode),
  }),
  redirectUrl: t.exposeString("redirectUrl", {
    nullable: true,
    description: "Where the pay page links once the request is paid.",
  }),
  notifyUrl: t.exposeString("notifyUrl", { nullable: true, description: "Webhook that receives signed notifications." }),
}));

// Its status and times.
builder.prismaObjectFields(PaymentRequest, (t) => ({
  status: t.field({
    ...readableByPayers("PaymentRequest", "status"),
    type: RequestStatusEnum,
    description: "Current status; a request past expiresAt reads EXPIRED even before it is swept.",
    resolve: (request) => effectiveStatus(request, new Date()),
  }),
  paymentExpirySeconds: t.exposeInt("paymentExpirySeconds", { description: "Seconds the request stays payable." }),
  expiresAt: t.expose("expiresAt", {
    ...readableByPayers("PaymentRequest", "expiresAt"),
    type: "DateTime",
    description: "After this the request can no longer be paid.",
  }),
  createdAt: t.expose("createdAt", {
    ...readableByPayers("PaymentRequest", "createdAt"),
    type: "DateTime",
    description: "Creation time.",
  }),
  updatedAt: t.expose("updatedAt", {
    ...readableByPayers("PaymentRequest", "updatedAt"),
    type: "DateTime",
    description: "Last change.",
  }),
}));

const RequestCreateInput = builder.inputType("RequestCreateInput", {
  description: "What to request.",
  extensions: parameterCodes(createRequestCodes),
  fields: (t) => ({
    merchantId: t.id({ required: true, description: "The merchant creating the request (the key's own)." }),
    asset: t.string({ required: true, description: "Currency or asset class, e.g. NZD." }),
    amount: t.field({ type: "Amount", required: true, description: "Amount in minimum divisible units." }),
    clientId: t.id({ description: "Client configuration whose items become the payment options." }),
    externalReference: t.string({
      description: "Unique per merchant; repeating it with the same parameters returns the same request.",
    }),
    description: t.string({ description: "Shown to the payer." }),
    notifyUrl: t.string({ description: "Webhook for signed notifications of the payment and refunds." }),
    redirectUrl: t.string({
      description:
        "Where the pay page links once the request is paid; must start with one of the merchant's allowed redirect URLs.",
    }),
    paymentExpirySeconds: t.field({
      type: "ExpirySeconds",
      description: "Seconds the request stays payable, 1 to 86399; default 120.",
    }),
  }),
});

const RequestPayInput = builder.inputType("RequestPayInput", {
  description: "How to pay.",
  extensions: parameterCodes(payRequestCodes),
  fields: (t) => ({
    requestId: t.id({ required: true, description: "The request to pay." }),
    authorization: t.string({
      required: true,
      description: "Authorizes the payment at the ledger (a sandbox wallet id on sandbox wallet ledgers).",
    }),
    ledger: t.string({ required: true, description: "Ledger of one of the request's payment options." }),
  }),
});

const RequestCancelInput = builder.inputType("RequestCancelInput", {
  description: "What to cancel.",
  extensions: parameterCodes(requestIdCodes),
  fields: (t) => ({ requestId: t.id({ required: true, description: "The request to cancel." }) }),
});

/**
 * The request a resolver of this type was handed. Every field that returns a PaymentRequest (root
 * queries, mutations, the subscription, the list) returns the whole aggregate, RequestDetails.
 */
const detailsOf = (request: object) => request as RequestDetails;

// A request reached from a transaction or a webhook event is the whole aggregate too, read for
// all of them in one statement per tick of the call (graphql/request-loader.ts).
builder.prismaObjectField(Transaction, "request", (t) =>
  t.field({
    type: PaymentRequest,
    description: "The payment request.",
    select: { requestId: true },
    resolve: (transaction, _args, ctx) => ctx.loadRequest(transaction.requestId),
  }),
);
builder.prismaObjectField(WebhookEvent, "request", (t) =>
  t.field({
    type: PaymentRequest,
    description: "Its payment request.",
    select: { requestId: true },
    // A notifyUrl notification always has its request; only a test event to an endpoint has none.
    resolve: (event, _args, ctx) => ctx.loadRequest(event.requestId!),
  }),
);

builder.queryFields((t) => ({
  paymentRequest: t.field({
    type: PaymentRequest,
    description: "A payment request by id, requestCode or shortCode (give one).",
    extensions: parameterCodes({
      id: requestIdCodes.requestId,
      requestCode: requestIdCodes.requestCode,
      shortCode: requestIdCodes.shortCode,
    }),
    args: {
      id: t.arg.id({ description: "The requestId." }),
      requestCode: t.arg.string({ description: "The code a wallet scanned or received." }),
      shortCode: t.arg.string({ description: "The short code a person typed (PR-XXX-XXX; any case, dashes optional)." }),
    },
    resolve: async (_root, args, ctx) =>
      getRequest(await ctx.reads.domain(), { requestId: args.id, requestCode: args.requestCode, shortCode: args.shortCode }),
  }),
}));

const reloadRequest = (ctx: DomainContext, requestId: string) => getRequest(ctx, { requestId });

builder.mutationFields((t) => {
  const idempotencyKey = t.arg.string({ description: "Retries with the same key get the first outcome back (24 hours)." });
  return {
    requestCreate: t.field({
      type: PaymentRequest,
      description: "Create a payment request (status NEW).",
      args: { input: t.arg({ type: RequestCreateInput, required: true, description: "The request." }), idempotencyKey },
      errors: {},
      resolve: idempotentMutation({
        operation: "requestCreate",
        schema: createRequestInput,
        run: createRequest,
        reload: reloadRequest,
      }),
    }),
    requestPay: t.field({
      type: PaymentRequest,
      description: "Pay a request with an authorization at one of its ledgers.",
      args: {
        input: t.arg({ type: RequestPayInput, required: true, description: "Request, ledger and authorization." }),
        idempotencyKey,
      },
      errors: {},
      resolve: idempotentMutation({ operation: "requestPay", schema: payRequestInput, run: payRequest, reload: reloadRequest }),
    }),
    requestCancel: t.field({
      type: PaymentRequest,
      description: "Cancel an open request.",
      args: { input: t.arg({ type: RequestCancelInput, required: true, description: "The request." }), idempotencyKey },
      errors: {},
      resolve: idempotentMutation({
        operation: "requestCancel",
        schema: cancelRequestInput,
        run: cancelRequest,
        reload: reloadRequest,
      }),
    }),
  };
});

builder.subscriptionField("paymentRequestChanged", (t) =>
  t.field({
    type: PaymentRequest,
    description:
      "Emits one of the merchant's payment requests each time its status changes (paid, cancelled, expired) or it is refunded. " +
      "Over server-sent events: POST /graphql with Accept: text/event-stream.",
    args: { requestId: t.arg.id({ description: "Only this request." }) },
    // Not an async generator: one waiting for a change could not be ended until the next one came.
    subscribe: async (_root, args, ctx) => {
      const { merchantId } = requireMerchant(await ctx.domain());
      const changes = ctx.changes.changes(merchantId);
      return args.requestId
        ? pipe(
            changes,
            filter((change) => change.requestId === args.requestId),
          )
        : changes;
    },
    resolve: (change, _args, ctx) =>
      readOnce(change, async () => getRequest(await ctx.domain(), { requestId: change.requestId })),
  }),
);

/**
 * The request as it reads after a change, read once however many of the merchant's streams in this
 * process heard the change: they share its parsed object, and a merchant key sees exactly what its
 * merchant's other keys see. Without it each change cost every stream its own read.
 */
const reads = new WeakMap<RequestChange, Promise<RequestDetails>>();
function readOnce(change: RequestChange, read: () => Promise<RequestDetails>): Promise<RequestDetails> {
  let pending = reads.get(change);
  if (!pending) reads.set(change, (pending = read()));
  return pending;
}
