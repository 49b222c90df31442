import { sql } from "kysely";
import type { Param } from "../../sql/compiled.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import { currentTraceparent } from "../../tracing.js";
import type { PaymentRequest, Transaction } from "../../generated/prisma/client.js";
import type { CallParams } from "../events/record.js";
import { notifyUrlDestination } from "../deliveries/destination.js";
import { toNotificationTransaction } from "./events.js";

/** The values of a completed transaction's announcement (`transactionEventSource`, `notifyUrlDeliveryInsert`). */
export interface AnnouncementParams extends CallParams {
  eventMerchantId: string;
  eventRequestId: string;
  eventTransactionId: string;
  eventType: "PAYMENT_COMPLETED" | "REFUND_COMPLETED";
  eventPayload: string;
  eventAt: Date;
  notifyUrl: string | null;
  notifyDestination: string | null;
}

export function announcementParams(
  request: Pick<PaymentRequest, "id" | "merchantId" | "externalReference" | "asset" | "amount" | "notifyUrl">,
  transaction: Transaction,
  correlationId: string | null,
): AnnouncementParams {
  return {
    correlationId,
    traceparent: currentTraceparent(),
    eventMerchantId: request.merchantId,
    eventRequestId: request.id,
    eventTransactionId: transaction.id,
    eventType: transaction.type === "PURCHASE" ? "PAYMENT_COMPLETED" : "REFUND_COMPLETED",
    eventPayload: JSON.stringify(toNotificationTransaction(transaction, request)),
    eventAt: transaction.createdAt,
    notifyUrl: request.notifyUrl,
    notifyDestination: request.notifyUrl ? notifyUrlDestination(request.merchantId, request.notifyUrl) : null,
  };
}

/** The event of a completed transaction, as the source of `newEventsInsert`. */
export const transactionEventSource = (param: Param<AnnouncementParams>) =>
  sql`SELECT ${param("eventMerchantId")}::uuid AS merchant_id, ${param("eventRequestId")}::uuid AS request_id,
             ${param("eventTransactionId")}::uuid AS transaction_id, ${param("eventType")}::text AS type,
             ${param("eventPayload")}::jsonb AS payload, ${param("eventAt")}::timestamp(3) AS created_at`;

/**
 * When the request has a notifyUrl, the notification of its new event (the CTE `new_events`) to it
 * in the legacy format; none otherwise. Returns the delivery's id.
 */
export const notifyUrlDeliveryInsert = (qb: QueryBuilder, param: Param<AnnouncementParams>) =>
  qb
    .insertInto("delivery")
    .columns([
      "id",
      "merchantId",
      "requestId",
      "transactionId",
      "url",
      "destination",
      "correlationId",
      "traceparent",
      "payload",
      "createdAt",
      "updatedAt",
    ])
    .expression(
      sql`SELECT gen_random_uuid(), merchant_id, request_id, transaction_id, ${param("notifyUrl")}::text, ${param("notifyDestination")}::uuid,
                 ${param("correlationId")}::text, ${param("traceparent")}::text, payload, created_at, created_at
          FROM new_events WHERE ${param("notifyUrl")}::text IS NOT NULL`,
    )
    .returning("id");
