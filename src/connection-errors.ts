/**
 * Whether an error means a dependency cannot be reached (as opposed to a bug or a refused
 * statement), for PostgreSQL and for Redis: the API answers those 503, the worker reports them as
 * one outage line per dependency. Judged by the codes the errors carry. A few errors of
 * node-postgres and ioredis carry no code at all; those are matched below by their exact texts,
 * and nowhere else.
 */

type Failure = { code?: unknown; errorCode?: unknown; kind?: unknown; message?: unknown; cause?: unknown };

/** Node's socket errors: the peer is not there, or went away. */
const SOCKET_CODES = [
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
];

/**
 * The database cannot serve calls now, whatever the call: it cannot be reached, refuses the
 * configured role or names no database, is shutting down, or is out of connections. PostgreSQL's
 * SQLSTATE (class 08 connection exception, class 53 insufficient resources, 57P01-57P05 shutdown
 * and lost database, 3D000 no such database, 28000/28P01 role refused), Prisma's codes for the same,
 * and the kinds Prisma's pg adapter gives them.
 */
const DATABASE_SQLSTATE = /^(08\w{3}|53\w{3}|57P0[1-5]|3D000|28000|28P01)$/;
const DATABASE_CODES = new Set([
  ...SOCKET_CODES,
  ...["P1000", "P1001", "P1002", "P1003", "P1008", "P1010", "P1017", "P2024", "P2037"],
]);
const DATABASE_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "DatabaseDoesNotExist",
  "DatabaseAccessDenied",
  "AuthenticationFailed",
]);
/**
 * node-postgres's errors with no code (a dropped connection, its connect and query timeouts), and
 * what Prisma says of an unreachable server or of a transaction that got no connection within its
 * wait (P2028, a code Prisma also gives errors of a transaction's own); Prisma's client carries such
 * an error only inside the message of its own, so these are found anywhere in a message.
 */
const DATABASE_CODELESS =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Connection refused|Can't reach database|server closed the connection|Unable to start a transaction in the given time/;

/**
 * Redis: ioredis's errors with no code (a closed connection, a command it cannot send, its own
 * connect timeout, a command out of retries, and a Sentinel client that found no master answering
 * where the sentinels said, which it words as "All sentinels are unreachable"), and the refusal of
 * a master demoted to a replica (READONLY) while its clients move to the new master.
 */
const REDIS_CODELESS =
  /^(Connection is closed\.|Stream isn't writeable and enableOfflineQueue options is false|connect ETIMEDOUT)$|^(All sentinels are unreachable\.|Reached the max retries per request limit|READONLY )/;

/** The error and its causes, up to five deep (Prisma and BullMQ wrap what the driver threw). */
function* chain(error: unknown): Generator<Failure> {
  let e = error as Failure | undefined;
  for (let depth = 0; e && typeof e === "object" && depth < 5; depth++, e = e.cause as Failure | undefined) yield e;
}

const isDatabaseCode = (code: unknown) => typeof code === "string" && (DATABASE_CODES.has(code) || DATABASE_SQLSTATE.test(code));

/** Whether an error means PostgreSQL could not be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of chain(error)) {
    // Prisma's initialization errors carry their code as errorCode.
    if (isDatabaseCode(e.code) || isDatabaseCode(e.errorCode)) return true;
    if (typeof e.kind === "string" && DATABASE_KINDS.has(e.kind)) return true;
    if (typeof e.message === "string" && DATABASE_CODELESS.test(e.message)) return true;
  }
  return false;
}

/** Whether an error means Redis could not be reached (ioredis and BullMQ raise these while they reconnect). */
export function isRedisUnavailable(error: unknown): boolean {
  for (const e of chain(error)) {
    if (typeof e.code === "string" && SOCKET_CODES.includes(e.code)) return true;
    if (typeof e.message === "string" && REDIS_CODELESS.test(e.message)) return true;
  }
  return false;
}
