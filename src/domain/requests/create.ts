import { randomUUID } from "node:crypto";
import { db, pool, toUtcText as utc } from "../../db.js";
import { requireOwnMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { StateConflictError } from "../errors.js";
import { isUniqueViolation } from "../prisma-errors.js";
import { findRequestDetails } from "./find-details.js";
import { actorName } from "../audit/record.js";
import { parseInput } from "../validation.js";
import { requestDetails, type RequestDetails } from "./details.js";
import { paymentOptionsFor, type NewPaymentOption } from "./payment-options.js";
import { newRequestCode } from "./request-code.js";
import { createRequestCodes, createRequestInput, DEFAULT_PAYMENT_EXPIRY_SECONDS, type CreateRequestInput } from "./schemas.js";

/**
 * Creates a payment request with status NEW and one payment option per matching configuration item.
 * An externalReference makes creation idempotent: the same parameters again return the existing
 * request, different ones are REPEAT_REFERENCE.
 */
export async function createRequest(ctx: DomainContext, input: CreateRequestInput): Promise<RequestDetails> {
  const params = parseInput(createRequestInput, createRequestCodes, input);
  requireOwnMerchant(ctx, params.merchantId);
  const fields = {
    merchantId: params.merchantId,
    clientId: params.clientId ?? null,
    externalReference: params.externalReference ?? null,
    asset: params.asset,
    amount: params.amount,
    description: params.description ?? null,
    notifyUrl: params.notifyUrl ?? null,
    paymentExpirySeconds: params.paymentExpirySeconds ?? DEFAULT_PAYMENT_EXPIRY_SECONDS,
  };

  const existing = await findByReference(fields);
  if (existing) return sameRequestOrConflict(existing, fields);

  const options = await paymentOptionsFor(fields.merchantId, params.clientId, fields.asset, fields.amount);
  const createdAt = ctx.now();
  try {
    return await insertRequest(ctx, fields, options, createdAt);
  } catch (error) {
    // Two creates with one reference raced; the loser answers as a repeat would.
    const winner = isUniqueViolation(error) ? await findByReference(fields) : null;
    if (winner) return sameRequestOrConflict(winner, fields);
    throw error;
  }
}

/**
 * The request and its options in one statement (so atomically), in plain SQL: requests.create is
 * a hot path and Prisma's nested create cost several times more (bench/).
 */
async function insertRequest(
  ctx: DomainContext,
  fields: Fields,
  options: NewPaymentOption[],
  createdAt: Date,
): Promise<RequestDetails> {
  const id = randomUUID();
  await pool.query(
    `WITH request AS (
       INSERT INTO payment_request (id, merchant_id, client_id, external_reference, asset, amount, request_code, description,
                                    payment_expiry_seconds, expires_at, notify_url, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)
     )
     , activity AS (
       INSERT INTO activity (id, merchant_id, request_id, action, actor, correlation_id, outcome, created_at)
       VALUES (gen_random_uuid(), $2, $1, 'request.created', $14, $15, 'NEW', $12)
     )
     , claim AS (
       UPDATE idempotency_key SET entity_id = $1 WHERE api_key_prefix = $16 AND key = $17
     )
     INSERT INTO payment_option (id, request_id, index, ledger_id, amount, account, methods)
     SELECT gen_random_uuid(), $1, o.index, o.ledger_id, $6, o.account, o.methods::"PaymentMethod"[]
     FROM json_to_recordset($13) AS o(index int, ledger_id text, account text, methods text[])`,
    [
      id,
      fields.merchantId,
      fields.clientId,
      fields.externalReference,
      fields.asset,
      fields.amount.toString(),
      newRequestCode(),
      fields.description,
      fields.paymentExpirySeconds,
      utc(new Date(createdAt.getTime() + fields.paymentExpirySeconds * 1000)),
      fields.notifyUrl,
      utc(createdAt),
      JSON.stringify(options.map((o) => ({ index: o.index, ledger_id: o.ledgerId, account: o.account, methods: o.methods }))),
      actorName(ctx.actor),
      ctx.requestId,
      // The idempotency key's claim notes the request in the same statement (see recordActivity).
      ctx.idempotencyClaim?.scope ?? null,
      ctx.idempotencyClaim?.key ?? null,
    ],
  );
  return (await findRequestDetails({ requestId: id }))!;
}

type Fields = Pick<
  RequestDetails,
  "merchantId" | "clientId" | "externalReference" | "asset" | "amount" | "description" | "notifyUrl" | "paymentExpirySeconds"
>;

function findByReference({ merchantId, externalReference }: Fields) {
  if (!externalReference) return null;
  return db.paymentRequest.findUnique({
    where: { merchantId_externalReference: { merchantId, externalReference } },
    include: requestDetails,
  });
}

function sameRequestOrConflict(existing: RequestDetails, fields: Fields): RequestDetails {
  const differs = (Object.keys(fields) as (keyof Fields)[]).some((key) => existing[key] !== fields[key]);
  if (differs) {
    throw new StateConflictError("REPEAT_REFERENCE", "A different request already has this externalReference.");
  }
  return existing;
}
