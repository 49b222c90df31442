import type { ConnectorKind } from "../../../generated/prisma/client.js";
import { ValidationError } from "../../errors.js";
import { sandboxApproval } from "../approval-code.js";
import type { LedgerConnector } from "../connector.js";
import { sandboxWallet } from "./sandbox-wallet.js";

/** `test.uplink`: approves any non-empty authorization and every refund. Moves no money. */
const testUplink: LedgerConnector = {
  async authorize(_trx, { authorization, now }) {
    if (!authorization.trim()) throw new ValidationError("INVALID_AUTHORIZATION", "authorization is required");
    return sandboxApproval("test", now, null);
  },
  async refund(_trx, { now }) {
    return sandboxApproval("test", now, null);
  },
};

const connectors: Record<ConnectorKind, LedgerConnector> = {
  TEST_UPLINK: testUplink,
  SANDBOX_WALLET: sandboxWallet,
};

/** The connector that speaks to a ledger of this kind. */
export function connectorFor(kind: ConnectorKind): LedgerConnector {
  return connectors[kind];
}
