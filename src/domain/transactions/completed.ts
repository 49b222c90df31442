import { randomUUID } from "node:crypto";
import { StatementParams } from "../../db.js";
import type { Transaction, TransactionType } from "../../generated/prisma/client.js";
import { transactions } from "../../sql/tables.js";
import { activityParts, type NewActivity, type WriteContext } from "../audit/record.js";
import type { LedgerApproval } from "../ledgers/connector.js";
import { outboxParts } from "../webhooks/record.js";
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

/**
 * The one statement that records a completed transaction: its row, what else the operation changes
 * (`also`, CTE parts of its own), its activity, and its outbox row with the NOTIFY that wakes the worker.
 */
export function transactionWrite(
  ctx: WriteContext,
  request: Parameters<typeof outboxParts>[1],
  transaction: Transaction,
  activity: NewActivity,
  also: (p: StatementParams) => string[] = () => [],
) {
  const p = new StatementParams();
  const outbox = outboxParts(p, request, transaction, ctx.requestId);
  const parts = [
    `completed AS (${transactions.insert(p.add.bind(p), transaction)})`,
    ...also(p),
    ...activityParts(p, ctx, activity),
    ...outbox.parts,
  ];
  return { text: `WITH ${parts.join(",\n")}\n${outbox.last}`, values: p.values };
}
