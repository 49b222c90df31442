import type { Tx } from "../../db.js";
import type { Ledger, Transaction } from "../../generated/prisma/client.js";

/** What a ledger says when it accepts a transfer. */
export interface LedgerApproval {
  authCode: string;
  responseCode: string;
  /** Payment type for the merchant's reconciliation (may be a card type). */
  paymentType: string;
  settlementDate: Date;
  /** Where the money came from, in the ledger's terms; refunds are returned there. */
  payerReference: string | null;
}

export interface AuthorizePayment {
  ledger: Ledger;
  authorization: string;
  amount: bigint;
  asset: string;
  now: Date;
}

export interface ReturnPayment {
  ledger: Ledger;
  purchase: Transaction;
  amount: bigint;
  now: Date;
}

/**
 * A ledger integration. Both calls run inside the caller's database transaction, which commits only
 * if the whole operation succeeds; a connector that talks to an outside ledger ignores `tx` and must
 * make its own call idempotent. Refusals throw LedgerRefusedError, outages ExternalServiceError.
 */
export interface LedgerConnector {
  authorize(tx: Tx, payment: AuthorizePayment): Promise<LedgerApproval>;
  refund(tx: Tx, refund: ReturnPayment): Promise<LedgerApproval>;
}
