import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { database } from "../../db.js";
import { compiled, compiledShapes } from "../../sql/compiled.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import { recordJson } from "../../sql/rows.js";
import { requireOwnMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { StateConflictError, ValidationError } from "../errors.js";
import { isUniqueViolation, violatedConstraint } from "../constraint-violations.js";
import { activityInsert, activityParams, type ActivityParams, type WriteContext } from "../audit/trail.js";
import {
  carriesClaim,
  idempotencyRecordParams,
  withCompiledIdempotencyRecord,
  type IdempotencyRecordParams,
} from "../idempotency-keys.js";
import { parseInput } from "../validation.js";
import { requestFromRow, requestDetails, type DetailsRow, type RequestDetails } from "./aggregate.js";
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

const ALLOWED_REDIRECTS = compiled<{ merchantId: string }, { allowedRedirectUrls: string[] }>((qb, param) =>
  qb.selectFrom("merchant").select("allowedRedirectUrls").where("id", "=", param("merchantId")),
);

/**
 * A paid request's page links to its redirectUrl, so the URL must start with one the merchant's
 * operator allowed: the page never sends a payer to an address the merchant did not choose.
 */
async function requireAllowedRedirect(merchantId: string, redirectUrl: string): Promise<void> {
  const [merchant] = await ALLOWED_REDIRECTS(database, { merchantId });
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
 * The request, its options and its activity in one statement (so atomically): what it wrote is the
 * request as it reads, so no read follows.
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
  await CREATION_WRITE(database, creationWriteParams(ctx, request));
  return request;
}

type CreationWriteParams = { request: string; options: string } & ActivityParams & IdempotencyRecordParams;

/**
 * The statement that creates a request with its options, records its activity and, for a call with
 * an Idempotency-Key (`claim`), the call's idempotency record.
 */
const CREATION_WRITE = compiledShapes<"bare" | "claim", CreationWriteParams, { written: number }>(
  ["bare", "claim"],
  (params) => (carriesClaim(params) ? "claim" : "bare"),
  (shape, qb, param) => {
    const written = qb
      .with("request", () =>
        qb
          .insertInto("paymentRequest")
          .expression(sql`SELECT * FROM json_populate_record(null::payment_request, ${param("request")}::json)`),
      )
      .with("options", () =>
        qb
          .insertInto("paymentOption")
          .expression(sql`SELECT * FROM json_populate_recordset(null::payment_option, ${param("options")}::json)`),
      )
      .with("activity", () => activityInsert(qb, param)) as unknown as QueryBuilder;
    return withCompiledIdempotencyRecord(written, param, shape === "claim").selectNoFrom(sql<number>`1`.as("written"));
  },
);

export function creationWriteParams(ctx: WriteContext, r: RequestDetails): CreationWriteParams {
  const { options, purchase: _none, ...request } = r;
  return {
    request: recordJson(request),
    options: recordJson(options),
    ...activityParams(ctx, { action: "request.created", merchantId: r.merchantId, requestId: r.id, outcome: "NEW" }),
    ...idempotencyRecordParams(ctx.idempotencyClaim, r.id),
  };
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

const BY_REFERENCE = compiled<{ merchantId: string; externalReference: string }, DetailsRow>((qb, param) =>
  qb
    .selectFrom("paymentRequest as r")
    .select(requestDetails)
    .where("r.merchantId", "=", param("merchantId"))
    .where("r.externalReference", "=", param("externalReference")),
);

async function findByReference({ merchantId, externalReference }: Fields) {
  if (!externalReference) return null;
  const [row] = await BY_REFERENCE(database, { merchantId, externalReference });
  return row ? requestFromRow(row) : null;
}

function sameRequestOrConflict(existing: RequestDetails, fields: Fields): RequestDetails {
  const differs = (Object.keys(fields) as (keyof Fields)[]).some((key) => existing[key] !== fields[key]);
  if (differs) {
    throw new StateConflictError("REPEAT_REFERENCE", "A different request already has this externalReference.");
  }
  return existing;
}
