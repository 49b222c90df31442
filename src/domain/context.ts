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
  /**
   * The idempotency key the call's write is made under, if any: the write notes the entity it
   * produced on the key's claim in its own transaction (see transport/idempotency.ts).
   */
  idempotencyClaim?: IdempotencyClaim;
}

/** A claimed idempotency key: the API key prefix (or `operator`) it belongs to, and the key. */
export interface IdempotencyClaim {
  scope: string;
  key: string;
}
