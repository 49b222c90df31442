import type { Tx } from "../../db.js";
import type { PaymentRequest, Transaction } from "../../generated/prisma/client.js";
import { toNotificationTransaction } from "./events.js";
import { WEBHOOK_CHANNEL } from "./outbox.js";

/**
 * Writes the outbox row announcing a completed transaction, in the caller's database transaction,
 * when the request has a notifyUrl. The worker delivers it; the API never does.
 */
export async function recordWebhookEvent(
  tx: Tx,
  request: PaymentRequest,
  transaction: Transaction,
  correlationId: string | null = null,
): Promise<void> {
  if (!request.notifyUrl) return;
  const event = await tx.webhookEvent.create({
    data: {
      merchantId: request.merchantId,
      requestId: request.id,
      transactionId: transaction.id,
      url: request.notifyUrl,
      correlationId,
      payload: toNotificationTransaction(transaction, request),
    },
    select: { id: true },
  });
  // Wakes the worker when the transaction commits; its periodic drain catches anything missed.
  await tx.$executeRaw`SELECT pg_notify(${WEBHOOK_CHANNEL}, ${event.id})`;
}
