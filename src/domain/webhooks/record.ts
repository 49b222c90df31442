import type { StatementParams } from "../../db.js";
import { currentTraceparent } from "../../tracing.js";
import type { PaymentRequest, Transaction } from "../../generated/prisma/client.js";
import { ENDPOINT_DELIVERIES, eventParts, outboxNotified } from "../events/record.js";
import { notifyUrlDestination } from "../deliveries/destination.js";
import { toNotificationTransaction } from "./events.js";

/**
 * The parts of a write statement that announce a completed transaction: its event
 * (`payment.completed` or `refund.completed`) with a delivery to each subscribed endpoint, and,
 * when the request has a notifyUrl, the notification to it in the legacy format (a CTE each), and
 * the statement's final SELECT, which wakes the worker with NOTIFY once the transaction commits
 * (its periodic poll of the outbox catches anything missed). The worker delivers them; the API
 * never does. The rows keep the call's request id and, when the call is traced, its `traceparent`,
 * which the worker's delivery traces link to.
 */
export function outboxParts(
  p: StatementParams,
  request: Pick<PaymentRequest, "id" | "merchantId" | "externalReference" | "asset" | "amount" | "notifyUrl">,
  transaction: Transaction,
  correlationId: string | null,
): { parts: string[]; last: string } {
  const call = { correlationId: `${p.add(correlationId)}::text`, traceparent: `${p.add(currentTraceparent())}::text` };
  const payload = `${p.add(JSON.stringify(toNotificationTransaction(transaction, request)))}::jsonb`;
  const at = `${p.add(transaction.createdAt)}::timestamp(3)`;
  const type = transaction.type === "PURCHASE" ? "PAYMENT_COMPLETED" : "REFUND_COMPLETED";
  const parts = eventParts(
    `SELECT ${p.add(request.merchantId)}::uuid AS merchant_id, ${p.add(request.id)}::uuid AS request_id,
            ${p.add(transaction.id)}::uuid AS transaction_id, '${type}' AS type, ${payload} AS payload, ${at} AS created_at`,
    call,
  );
  if (!request.notifyUrl) return { parts, last: `SELECT ${outboxNotified(ENDPOINT_DELIVERIES)}` };
  const notification = `outbox AS (
    INSERT INTO webhook_event (id, merchant_id, request_id, transaction_id, url, destination, correlation_id, traceparent, payload, created_at, updated_at)
    SELECT gen_random_uuid(), merchant_id, request_id, transaction_id, ${p.add(request.notifyUrl)},
           ${p.add(notifyUrlDestination(request.merchantId, request.notifyUrl))}::uuid, ${call.correlationId},
           ${call.traceparent}, payload, created_at, created_at FROM new_events
    RETURNING id)`;
  return { parts: [...parts, notification], last: `SELECT ${outboxNotified(ENDPOINT_DELIVERIES, "outbox")}` };
}
