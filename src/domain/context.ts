import type { Logger } from "../logger.js";

/** Who is calling. Keys are resolved to an actor once per call; operators use the CLI. */
export type Actor =
  { kind: "merchant"; merchantId: string; keyPrefix: string } | { kind: "payer"; keyPrefix: string } | { kind: "operator" };

export interface DomainContext {
  actor: Actor;
  /** Correlates the log lines of one call. */
  requestId: string;
  logger: Logger;
  /** The clock; tests may pin it. */
  now: () => Date;
}
