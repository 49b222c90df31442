import type { QueryBuilder } from "../../sql/query-builder.js";
import type { Ledger, Transaction } from "../../generated/prisma/client.js";

/** What a connector needs to know of its ledger. */
export type LedgerRef = Pick<Ledger, "id" | "currency" | "connector">;

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
  ledger: LedgerRef;
  authorization: string;
  amount: bigint;
  asset: string;
  now: Date;
}

export interface ReturnPayment {
  ledger: LedgerRef;
  purchase: Transaction;
  amount: bigint;
  now: Date;
}

/**
 * A ledger integration. Both calls run inside the caller's database transaction (`trx`), which commits only
 * if the whole operation succeeds; a connector that talks to an outside ledger ignores `trx` and must
 * make its own call idempotent. Refusals throw LedgerRefusedError, outages ExternalServiceError.
 */
export interface LedgerConnector {
  authorize(trx: QueryBuilder, payment: AuthorizePayment): Promise<LedgerApproval>;
  refund(trx: QueryBuilder, refund: ReturnPayment): Promise<LedgerApproval>;
}
