import type { ConnectorKind } from "../../../generated/prisma/client.js";
import type { LedgerConnector } from "../connector.js";
import { sandboxWallet } from "./sandbox-wallet.js";
import { testUplink } from "./test-uplink.js";

const connectors: Record<ConnectorKind, LedgerConnector> = {
  TEST_UPLINK: testUplink,
  SANDBOX_WALLET: sandboxWallet,
};

/** The connector that speaks to a ledger of this kind. */
export function connectorFor(kind: ConnectorKind): LedgerConnector {
  return connectors[kind];
}
