import { db } from "../../db.js";
import { requireOwnMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { StateConflictError } from "../errors.js";
import { isUniqueViolation } from "../prisma-errors.js";
import { parseInput } from "../validation.js";
import { requestDetails, type RequestDetails } from "./details.js";
import { paymentOptionsFor } from "./payment-options.js";
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
    return await db.paymentRequest.create({
      data: {
        ...fields,
        requestCode: newRequestCode(),
        createdAt,
        updatedAt: createdAt,
        expiresAt: new Date(createdAt.getTime() + fields.paymentExpirySeconds * 1000),
        options: { create: options },
      },
      include: requestDetails,
    });
  } catch (error) {
    // Two creates with one reference raced; the loser answers as a repeat would.
    const winner = isUniqueViolation(error) ? await findByReference(fields) : null;
    if (winner) return sameRequestOrConflict(winner, fields);
    throw error;
  }
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
