import { randomUUID } from "node:crypto";
import { sql, type UpdateQueryBuilder, type UpdateResult } from "kysely";
import type { DB } from "../../generated/kysely/database.js";
import type { PaymentRequest, Transaction, TransactionType } from "../../generated/prisma/client.js";
import { compiledShapes, type Param } from "../../sql/compiled.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import { recordJson } from "../../sql/rows.js";
import { activityInsert, activityParams, type ActivityParams, type NewActivity, type WriteContext } from "../audit/trail.js";
import { endpointDeliveriesInsert, newEventsInsert, notified } from "../events/record.js";
import {
  carriesClaim,
  idempotencyRecordParams,
  withCompiledIdempotencyRecord,
  type IdempotencyRecordParams,
} from "../idempotency-keys.js";
import type { LedgerApproval } from "../ledgers/connector.js";
import {
  announcementParams,
  notifyUrlDeliveryInsert,
  transactionEventSource,
  type AnnouncementParams,
} from "../webhooks/record.js";
import { receiptFor } from "./receipt.js";

/** A transaction the ledger has approved, with its receipt, as it is written. */
export function completedTransaction(
  fields: Pick<
    Transaction,
    "requestId" | "merchantId" | "ledgerId" | "amount" | "account" | "purchaseId" | "externalReference"
  > & {
    type: TransactionType;
  },
  asset: string,
  approval: LedgerApproval,
  now: Date,
): Transaction {
  return {
    ...fields,
    id: randomUUID(),
    state: "COMPLETED",
    ...approval,
    receipt: receiptFor({
      kind: fields.type,
      amount: fields.amount,
      asset,
      ledgerId: fields.ledgerId,
      authCode: approval.authCode,
      at: now,
    }),
    createdAt: now,
    updatedAt: now,
  };
}

/** The values of the statement that records a completed transaction (`transactionWrite`). */
export type TransactionWriteParams = { transaction: string } & ActivityParams & IdempotencyRecordParams & AnnouncementParams;

export function transactionWriteParams(
  ctx: WriteContext,
  request: Pick<PaymentRequest, "id" | "merchantId" | "externalReference" | "asset" | "amount" | "notifyUrl">,
  transaction: Transaction,
  activity: NewActivity,
): TransactionWriteParams {
  const entityId = transaction.type === "REFUND" ? transaction.id : request.id;
  return {
    transaction: recordJson(transaction),
    ...activityParams(ctx, activity),
    ...idempotencyRecordParams(ctx.idempotencyClaim, entityId),
    ...announcementParams(request, transaction, ctx.requestId),
  };
}

/**
 * The shapes of `transactionWrite`, by the parts a call needs beyond the transaction's row, activity
 * and event: the call's idempotency record (`claim`, a call with an Idempotency-Key) and the
 * notification to the request's notifyUrl (`outbox`, a request that has one).
 */
const TRANSACTION_WRITE_SHAPES = ["bare", "claim", "outbox", "claim+outbox"] as const;
type TransactionWriteShape = (typeof TRANSACTION_WRITE_SHAPES)[number];

function transactionWriteShape(params: TransactionWriteParams): TransactionWriteShape {
  const claim = carriesClaim(params);
  const outbox = params.notifyUrl !== null;
  return claim ? (outbox ? "claim+outbox" : "claim") : outbox ? "outbox" : "bare";
}

/**
 * The one statement that records a completed transaction: its row, its activity, the call's
 * idempotency record, and its announcement (its event with a delivery to each subscribed endpoint,
 * and the notification to the request's notifyUrl), with the NOTIFY that wakes the worker on
 * commit, in the `shape` the call needs. `change` is what else the operation changes (the paid
 * request's status), a CTE before these.
 */
function transactionWrite<P extends TransactionWriteParams>(
  qb: QueryBuilder,
  param: Param<P>,
  shape: TransactionWriteShape,
  change?: () => RequestChange,
) {
  const p = param as Param<TransactionWriteParams>;
  // No later part reads the CTE `change`: the chain goes on as from the builder itself.
  const withChange = change ? (qb.with("change", change) as unknown as QueryBuilder) : qb;
  const written = withChange
    .with("completed", () =>
      qb
        .insertInto("transaction")
        .expression(sql`SELECT * FROM json_populate_record(null::"transaction", ${p("transaction")}::json)`),
    )
    .with("activity", () => activityInsert(qb, p)) as unknown as QueryBuilder;
  const announced = withCompiledIdempotencyRecord(written, p, shape.startsWith("claim"))
    .with("newEvents", () => newEventsInsert(qb, transactionEventSource(p)))
    .with("endpointDeliveries", () => endpointDeliveriesInsert(qb, p));
  return shape.endsWith("outbox")
    ? announced
        .with("outbox", () => notifyUrlDeliveryInsert(qb, p))
        .selectNoFrom(notified("endpoint_deliveries", "outbox").as("queued"))
    : announced.selectNoFrom(notified("endpoint_deliveries").as("queued"));
}

type RequestChange = UpdateQueryBuilder<DB, "paymentRequest", "paymentRequest", UpdateResult>;

/**
 * The statement that records a completed transaction (`transactionWrite`), compiled in each of its
 * shapes: a call runs the one its values need. `change`, built with the statement's builder and
 * parameters, is what else the operation changes.
 */
export const compiledTransactionWrite = <P extends TransactionWriteParams>(
  change?: (qb: QueryBuilder, param: Param<P>) => RequestChange,
) =>
  compiledShapes<TransactionWriteShape, P, { queued: number }>(
    TRANSACTION_WRITE_SHAPES,
    transactionWriteShape,
    (shape, qb, param) => transactionWrite(qb, param, shape, change && (() => change(qb, param))),
  );
