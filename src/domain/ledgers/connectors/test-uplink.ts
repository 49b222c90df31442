import { ValidationError } from "../../errors.js";
import { newAuthCode } from "../approval-code.js";
import type { LedgerConnector } from "../connector.js";

/** `test.uplink`: approves any non-empty authorization and every refund. Moves no money. */
export const testUplink: LedgerConnector = {
  async authorize(_tx, { authorization, now }) {
    if (!authorization.trim()) throw new ValidationError("INVALID_AUTHORIZATION", "authorization is required");
    return { authCode: newAuthCode(), responseCode: "00", paymentType: "test", settlementDate: now, payerReference: null };
  },
  async refund(_tx, { now }) {
    return { authCode: newAuthCode(), responseCode: "00", paymentType: "test", settlementDate: now, payerReference: null };
  },
};
