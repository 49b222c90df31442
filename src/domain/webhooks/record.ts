import type { StatementParams } from "../../db.js";
import { currentTraceparent } from "../../tracing.js";
import type { PaymentRequest, Transaction } from "../../generated/prisma/client.js";
import { toNotificationTransaction } from "./events.js";
import { WEBHOOK_CHANNEL } from "./outbox.js";

/**
 * The parts of a write statement that put a completed transaction in the outbox, when the request has
 * a notifyUrl: the event row (a CTE) and the statement's final SELECT, which wakes the worker with
 * NOTIFY once the transaction commits (its periodic poll of the outbox catches anything missed). The
 * worker delivers it; the API never does. The row keeps the call's request id and, when the call is traced,
 * its `traceparent`, which the worker's delivery traces link to. Without a notifyUrl: no part, and a
 * final SELECT that does nothing.
 */
export function outboxParts(
  p: StatementParams,
  request: Pick<PaymentRequest, "id" | "merchantId" | "externalReference" | "asset" | "amount" | "notifyUrl">,
  transaction: Transaction,
  correlationId: string | null,
): { parts: string[]; last: string } {
  if (!request.notifyUrl) return { parts: [], last: "SELECT 1" };
  const event = `outbox AS (
    INSERT INTO webhook_event (id, merchant_id, request_id, transaction_id, url, correlation_id, traceparent, payload, created_at, updated_at)
    VALUES (gen_random_uuid(), ${p.add(request.merchantId)}::uuid, ${p.add(request.id)}::uuid, ${p.add(transaction.id)}::uuid,
            ${p.add(request.notifyUrl)}, ${p.add(correlationId)}, ${p.add(currentTraceparent())},
            ${p.add(JSON.stringify(toNotificationTransaction(transaction, request)))}::jsonb,
            ${p.add(transaction.createdAt)}::timestamp(3), ${p.add(transaction.createdAt)}::timestamp(3))
    RETURNING id)`;
  return { parts: [event], last: `SELECT pg_notify(${p.add(WEBHOOK_CHANNEL)}, id::text) FROM outbox` };
}
