import { ValidationError } from "../../errors.js";
import { sandboxApproval } from "../approval-code.js";
import type { LedgerConnector } from "../connector.js";

/** `test.uplink`: approves any non-empty authorization and every refund. Moves no money. */
export const testUplink: LedgerConnector = {
  async authorize(_tx, { authorization, now }) {
    if (!authorization.trim()) throw new ValidationError("INVALID_AUTHORIZATION", "authorization is required");
    return sandboxApproval("test", now, null);
  },
  async refund(_tx, { now }) {
    return sandboxApproval("test", now, null);
  },
};
