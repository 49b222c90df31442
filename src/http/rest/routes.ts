import { z } from "zod";
import type { DomainContext } from "../../domain/context.js";
import { ValidationError } from "../../domain/errors.js";
import { listEventsParams, listEventsWithParams } from "./event-params.js";
import { getMerchantConfiguration } from "../../domain/merchants/configurations-info.js";
import { configurationInfoInput, type ConfigurationInfoInput } from "../../domain/merchants/schemas.js";
import { cancelRequest } from "../../domain/requests/cancel.js";
import { createRequest } from "../../domain/requests/create.js";
import { getRequest } from "../../domain/requests/info.js";
import { payRequest } from "../../domain/requests/pay.js";
import {
  cancelRequestInput,
  createRequestInput,
  payRequestInput,
  requestInfoInput,
  type CancelRequestInput,
  type CreateRequestInput,
  type PayRequestInput,
} from "../../domain/requests/schemas.js";
import { getTransactionWithRequest } from "../../domain/transactions/info.js";
import { refundTransaction } from "../../domain/transactions/refund.js";
import { refundTransactionInput, type RefundTransactionInput } from "../../domain/transactions/schemas.js";
import type { Links } from "../../transport/links.js";
import type { Params } from "./params.js";
import {
  legacyEventPage,
  legacyMerchantConfiguration,
  legacyPaymentRequest,
  legacyTransaction,
  presentConfiguration,
  presentRefund,
  presentRequest,
} from "./present.js";
import type { AuthenticatedEnv } from "../middleware.js";

export interface Route {
  summary: string;
  /**
   * Changes state: accepts an Idempotency-Key, which compares calls by what `input` (the domain
   * operation's input schema) parses their parameters to. `replay` answers for the entity the write
   * produced (a request, or a refund) when a retry finds it committed without a kept response.
   */
  write?: { input: z.ZodObject; replay: (ctx: DomainContext, entityId: string, links: Links) => Promise<unknown> };
  /** The parameters the operation takes (the domain input schema, and any other names); documents them. */
  params: z.ZodObject;
  /** The domain operation's input from the parameters, where it names one differently (paymentAuthorization). */
  input?: (params: Params) => Params;
  response: z.ZodType;
  handle: (ctx: DomainContext, params: Params, links: Links) => Promise<unknown>;
}

const replayRequest = async (ctx: DomainContext, requestId: string, links: Links) =>
  presentRequest(await getRequest(ctx, { requestId }), ctx, links);
const replayRefund = async (ctx: DomainContext, transactionId: string) =>
  presentRefund(await getTransactionWithRequest(ctx, { transactionId }));

/** requests.pay also takes the authorization as `paymentAuthorization`, as the spec's sample does. */
const legacyPayParams = payRequestInput.extend({
  authorization: payRequestInput.shape.authorization.optional(),
  paymentAuthorization: payRequestInput.shape.authorization.optional().describe("Another name for authorization."),
});

function withAuthorization({ paymentAuthorization, ...params }: Params): Params {
  const { authorization } = params;
  if (authorization !== undefined && paymentAuthorization !== undefined && authorization !== paymentAuthorization) {
    throw new ValidationError("INVALID_AUTHORIZATION", "authorization and paymentAuthorization differ.");
  }
  return { ...params, authorization: authorization ?? paymentAuthorization };
}

/**
 * The dotted operations. Legacy parameters arrive untyped; each is handed as it came to the same
 * domain operation GraphQL calls, which parses it (hence the casts), and the result is presented.
 */
export const routes: Record<string, Route> = {
  "merchants.configurations.info": {
    summary: "Fetch the configuration items of a merchant (or of one of its clients).",
    params: configurationInfoInput,
    response: legacyMerchantConfiguration,
    handle: async (ctx, params) => presentConfiguration(await getMerchantConfiguration(ctx, params as ConfigurationInfoInput)),
  },
  "requests.create": {
    write: { input: createRequestInput, replay: replayRequest },
    summary: "Create a payment request.",
    params: createRequestInput,
    response: legacyPaymentRequest,
    handle: async (ctx, params, links) => presentRequest(await createRequest(ctx, params as CreateRequestInput), ctx, links),
  },
  "requests.info": {
    summary: "Read a request by requestId (or requestCode, or shortCode).",
    params: requestInfoInput,
    response: legacyPaymentRequest,
    handle: async (ctx, params, links) => presentRequest(await getRequest(ctx, params), ctx, links),
  },
  "requests.pay": {
    write: { input: payRequestInput, replay: replayRequest },
    summary: "Pay a request with an authorization at one of its ledgers.",
    params: legacyPayParams,
    input: withAuthorization,
    response: legacyPaymentRequest,
    handle: async (ctx, params, links) => presentRequest(await payRequest(ctx, params as PayRequestInput), ctx, links),
  },
  "requests.cancel": {
    write: { input: cancelRequestInput, replay: replayRequest },
    summary: "Cancel an open request.",
    params: cancelRequestInput,
    response: legacyPaymentRequest,
    handle: async (ctx, params, links) => presentRequest(await cancelRequest(ctx, params as CancelRequestInput), ctx, links),
  },
  "transactions.refund": {
    write: { input: refundTransactionInput, replay: replayRefund },
    summary: "Refund all or part of a purchase.",
    params: refundTransactionInput,
    response: legacyTransaction,
    handle: async (ctx, params) => presentRefund(await refundTransaction(ctx, params as RefundTransactionInput)),
  },
  "events.list": {
    summary: "List the merchant's events (payments, refunds, cancellations, expiries), newest first, a page at a time.",
    params: listEventsParams,
    response: legacyEventPage,
    handle: listEventsWithParams,
  },
};

/** What the dotted routes' middleware leave on the Hono context: the route, its caller and its parameters. */
export type RestEnv = AuthenticatedEnv & { Variables: { route: Route; operation: string; params: Params; links: Links } };
