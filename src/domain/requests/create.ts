import { randomUUID } from "node:crypto";
import { pool, prepared, StatementParams } from "../../db.js";
import { queryRow, statement } from "../../sql/statements.js";
import { merchants, paymentOptions, paymentRequests } from "../../sql/tables.js";
import { requireOwnMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { StateConflictError, ValidationError } from "../errors.js";
import { isUniqueViolation, violatedConstraint } from "../constraint-violations.js";
import { activityParts } from "../audit/record.js";
import { parseInput } from "../validation.js";
import { REQUEST_DETAILS, requestDetailsColumns, toRequestDetails, type RequestDetails } from "./aggregate.js";
import { paymentOptionsFor, type NewPaymentOption } from "./payment-options.js";
import { newRequestCode, newShortCode } from "./request-code.js";
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
    redirectUrl: params.redirectUrl ?? null,
    paymentExpirySeconds: params.paymentExpirySeconds ?? DEFAULT_PAYMENT_EXPIRY_SECONDS,
  };

  const existing = await findByReference(fields);
  if (existing) return sameRequestOrConflict(existing, fields);
  if (fields.redirectUrl !== null) await requireAllowedRedirect(fields.merchantId, fields.redirectUrl);

  const options = await paymentOptionsFor(fields.merchantId, params.clientId, fields.asset, fields.amount);
  const createdAt = ctx.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await insertRequest(ctx, fields, options, createdAt);
    } catch (error) {
      // A short code is drawn at random: one already taken (about one create in a million once a
      // thousand requests exist, far rarer below) is drawn again.
      if (violatedConstraint(error) === SHORT_CODE_KEY && attempt < SHORT_CODE_ATTEMPTS) continue;
      // Two creates with one reference raced; the loser answers as a repeat would.
      const winner = isUniqueViolation(error) ? await findByReference(fields) : null;
      if (winner) return sameRequestOrConflict(winner, fields);
      throw error;
    }
  }
}

const SHORT_CODE_KEY = "payment_request_short_code_key";
const SHORT_CODE_ATTEMPTS = 8;

const ALLOWED_REDIRECTS = statement(
  `SELECT allowed_redirect_urls AS "allowedRedirectUrls" FROM merchant WHERE id = $1`,
  merchants.pick("allowedRedirectUrls").columns,
);

/**
 * A paid request's page links to its redirectUrl, so the URL must start with one the merchant's
 * operator allowed: the page never sends a payer to an address the merchant did not choose.
 */
async function requireAllowedRedirect(merchantId: string, redirectUrl: string): Promise<void> {
  const merchant = await queryRow(pool, ALLOWED_REDIRECTS, [merchantId]);
  if (!isAllowedRedirect(redirectUrl, merchant?.allowedRedirectUrls ?? [])) {
    throw new ValidationError(
      "INVALID_REDIRECT_URL",
      "redirectUrl does not start with one of the merchant's allowed redirect URLs.",
    );
  }
}

/**
 * Whether `url` starts with one of `allowed`, its origin (scheme, host and port) matched whole: an
 * allowed `https://shop.example` must not let a request send its payer to `https://shop.example.evil.test`.
 */
export function isAllowedRedirect(url: string, allowed: readonly string[]): boolean {
  const target = URL.parse(url);
  return allowed.some((prefix) => {
    const base = URL.parse(prefix);
    return (
      target !== null &&
      base !== null &&
      target.origin === base.origin &&
      `${target.pathname}${target.search}`.startsWith(`${base.pathname}${base.search}`)
    );
  });
}

/**
 * The request, its options and its activity in one statement (so atomically), in plain SQL:
 * requests.create is a hot path and Prisma's nested create cost several times more (bench/).
 * What it wrote is the request as it reads: no read follows.
 */
async function insertRequest(
  ctx: DomainContext,
  fields: Fields,
  options: NewPaymentOption[],
  createdAt: Date,
): Promise<RequestDetails> {
  const request: RequestDetails = {
    ...fields,
    id: randomUUID(),
    requestCode: newRequestCode(),
    shortCode: newShortCode(),
    status: "NEW",
    expiresAt: new Date(createdAt.getTime() + fields.paymentExpirySeconds * 1000),
    createdAt,
    updatedAt: createdAt,
    options: [],
    purchase: null,
  };
  request.options = options.map((option) => ({ ...option, id: randomUUID(), requestId: request.id }));
  const { text, values } = creationWrite(ctx, request);
  await pool.query(prepared(text, values));
  return request;
}

/** The statement that creates a request (with its options) and records it. */
export function creationWrite(ctx: DomainContext, r: RequestDetails) {
  const p = new StatementParams();
  const add = p.add.bind(p);
  const parts = [
    `request AS (${paymentRequests.insert(add, r)})`,
    `options AS (${paymentOptions.insertAll(add, r.options)})`,
    ...activityParts(p, ctx, { action: "request.created", merchantId: r.merchantId, requestId: r.id, outcome: "NEW" }),
  ];
  return { text: `WITH ${parts.join(",\n")}\nSELECT 1`, values: p.values };
}

type Fields = Pick<
  RequestDetails,
  | "merchantId"
  | "clientId"
  | "externalReference"
  | "asset"
  | "amount"
  | "description"
  | "notifyUrl"
  | "redirectUrl"
  | "paymentExpirySeconds"
>;

const BY_REFERENCE = statement(
  `SELECT ${REQUEST_DETAILS} FROM payment_request r WHERE r.merchant_id = $1 AND r.external_reference = $2`,
  requestDetailsColumns,
);

async function findByReference({ merchantId, externalReference }: Fields) {
  if (!externalReference) return null;
  const row = await queryRow(pool, BY_REFERENCE, [merchantId, externalReference]);
  return row ? toRequestDetails(row) : null;
}

function sameRequestOrConflict(existing: RequestDetails, fields: Fields): RequestDetails {
  const differs = (Object.keys(fields) as (keyof Fields)[]).some((key) => existing[key] !== fields[key]);
  if (differs) {
    throw new StateConflictError("REPEAT_REFERENCE", "A different request already has this externalReference.");
  }
  return existing;
}
