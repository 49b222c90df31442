import { fromUtcText, type StatementParams } from "../../db.js";
import type { Transaction, TransactionState, TransactionType } from "../../generated/prisma/client.js";

/** A transaction as `transactionJson` selects it: amounts as text, timestamps as zone-less UTC text. */
export interface TransactionJson {
  id: string;
  type: TransactionType;
  state: TransactionState;
  requestId: string;
  merchantId: string;
  ledgerId: string;
  amount: string;
  account: string;
  authCode: string;
  responseCode: string;
  paymentType: string;
  receipt: string | null;
  settlementDate: string;
  payerReference: string | null;
  purchaseId: string | null;
  externalReference: string | null;
  createdAt: string;
  updatedAt: string;
}

/** SQL for one JSON object of the transaction row `t` (an alias), in the shape of TransactionJson. */
export const transactionJson = (t: string) => `json_build_object(
  'id', ${t}.id, 'type', ${t}.type, 'state', ${t}.state, 'requestId', ${t}.request_id, 'merchantId', ${t}.merchant_id,
  'ledgerId', ${t}.ledger_id, 'amount', ${t}.amount::text, 'account', ${t}.account, 'authCode', ${t}.auth_code,
  'responseCode', ${t}.response_code, 'paymentType', ${t}.payment_type, 'receipt', ${t}.receipt,
  'settlementDate', ${t}.settlement_date, 'payerReference', ${t}.payer_reference, 'purchaseId', ${t}.purchase_id,
  'externalReference', ${t}.external_reference, 'createdAt', ${t}.created_at, 'updatedAt', ${t}.updated_at)`;

export function toTransaction(json: TransactionJson): Transaction {
  return {
    ...json,
    amount: BigInt(json.amount),
    settlementDate: fromUtcText(json.settlementDate),
    createdAt: fromUtcText(json.createdAt),
    updatedAt: fromUtcText(json.updatedAt),
  };
}

/** The INSERT of a new transaction (a part of a write statement). */
export function insertTransaction(p: StatementParams, t: Transaction): string {
  return `INSERT INTO "transaction" (id, type, state, request_id, merchant_id, ledger_id, amount, account, auth_code, response_code,
            payment_type, receipt, settlement_date, payer_reference, purchase_id, external_reference, created_at, updated_at)
    VALUES (${p.add(t.id)}::uuid, ${p.add(t.type)}::"TransactionType", ${p.add(t.state)}::"TransactionState", ${p.add(t.requestId)}::uuid,
            ${p.add(t.merchantId)}::uuid, ${p.add(t.ledgerId)}, ${p.add(t.amount)}::bigint, ${p.add(t.account)}, ${p.add(t.authCode)},
            ${p.add(t.responseCode)}, ${p.add(t.paymentType)}, ${p.add(t.receipt)}, ${p.add(t.settlementDate)}::timestamp(3),
            ${p.add(t.payerReference)}, ${p.add(t.purchaseId)}::uuid, ${p.add(t.externalReference)},
            ${p.add(t.createdAt)}::timestamp(3), ${p.add(t.updatedAt)}::timestamp(3))`;
}
