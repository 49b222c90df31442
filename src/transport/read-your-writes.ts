import type { Result } from "ioredis";
import { sql } from "kysely";
import { primaryDatabase, type Database } from "../db.js";
import type { Actor, DomainContext } from "../domain/context.js";
import type { Logger } from "../logger.js";
import type { RedisClient } from "../redis-connection.js";

declare module "ioredis" {
  interface RedisCommander<Context> {
    /** Sets `mark` to `position` unless it holds a greater one; either way it lives `ttlMs` more. */
    noteWalPosition(mark: string, position: string, ttlMs: number): Result<number, Context>;
  }
}

/**
 * How long a merchant's write mark lives after its latest write. A merchant without one wrote
 * nothing for this long, and reads the replica only while it is less than MAX_REPLICA_BEHIND_MS
 * behind: everything it wrote is there.
 */
export const WRITE_MARK_MS = 60_000;
export const MAX_REPLICA_BEHIND_MS = WRITE_MARK_MS / 2;
/** How long a look at how far behind the replica is answers for merchants without a mark. */
const LOOK_ANSWERS_MS = 1_000;
/** After the replica failed to answer, how long reads go to the primary without asking it again. */
const REPLICA_DOWN_MS = 5_000;

/** A merchant's write mark: the primary's WAL position after its latest write. Its braces are a Redis Cluster hash tag. */
export const writeMark = (merchantId: string) => `payreq:wrote:{merchant:${merchantId}}`;

/**
 * Where the primary's WAL ends after a commit: at or past that commit's record, whatever
 * synchronous_commit is (the write position may not have reached it yet). As a byte count.
 */
const PRIMARY_POSITION = sql<{ position: string }>`SELECT (pg_current_wal_insert_lsn() - '0/0')::text AS position`;

/**
 * How far the replica has replayed, and how long ago what it has replayed was current on the
 * primary: 0 while it has replayed all it received and a WAL receiver is connected; else the age
 * of the last transaction it replayed (an upper bound). A server not in recovery is current. The
 * position is an int8, which the query builder reads as a bigint.
 */
const REPLICA_POSITION = sql<{ replayed: bigint; behindMs: number }>`SELECT
  (CASE WHEN pg_is_in_recovery() THEN coalesce(pg_last_wal_replay_lsn(), '0/0') ELSE pg_current_wal_lsn() END - '0/0')::int8 AS replayed,
  (CASE WHEN NOT pg_is_in_recovery() THEN 0
        WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() AND EXISTS (SELECT FROM pg_stat_wal_receiver) THEN 0
        ELSE coalesce(extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000, 'Infinity') END)::float8
    AS "behindMs"`;

interface ReplicaPosition {
  replayed: bigint;
  behindMs: number;
  /** When the look started (Date.now()). */
  at: number;
}

/**
 * Read-your-writes on a replica: a merchant never reads from it an older version of what one of
 * its keys changed. After each write call of a merchant key, `wrote` notes the primary's WAL
 * position in Redis (the greatest one, for every API process to see); a read that may lag goes to
 * the replica only when the replica has replayed past that mark, and to the primary when it has
 * not, when Redis or the replica cannot say, and for a while after this process lost Redis (an
 * emptied or failed-over Redis may have lost marks). Payer keys read the primary: their reads
 * decide whether to pay.
 */
export interface ReadYourWrites {
  /** After a write call of `actor` committed, before it answers: notes where the primary's WAL is. */
  wrote(actor: Actor): Promise<void>;
  /** The database a read of `actor` that may lag runs on: the replica when it holds all `actor` wrote. */
  databaseFor(actor: Actor): Promise<Database>;
}

export function readYourWrites(redis: RedisClient, replica: Database, logger: Logger): ReadYourWrites {
  redis.defineCommand("noteWalPosition", {
    numberOfKeys: 1,
    lua: `if tonumber(ARGV[1]) > tonumber(redis.call("GET", KEYS[1]) or "0") then
  redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
else
  redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
return 1`,
  });
  /** Until when this process reads only the primary, its marks being in doubt. */
  let unsureUntil = 0;
  const doubtMarks = () => (unsureUntil = Date.now() + WRITE_MARK_MS);
  // A reconnected Redis may be another one (a failover) or an emptied one: marks may be gone.
  let connected = redis.status === "ready";
  redis.on("ready", () => {
    if (connected) doubtMarks();
    connected = true;
  });

  let last: ReplicaPosition | undefined;
  let looking: Promise<ReplicaPosition> | undefined;
  let downUntil = 0;
  /** Reads the replica's position; concurrent reads share one look (a position only grows). */
  const look = () =>
    (looking ??= (async () => {
      const at = Date.now();
      try {
        const { rows } = await REPLICA_POSITION.execute(replica.database);
        const position = { ...rows[0]!, at };
        if (!last || last.at <= at) last = position;
        return position;
      } catch (err) {
        downUntil = Date.now() + REPLICA_DOWN_MS;
        throw err;
      } finally {
        looking = undefined;
      }
    })());

  /** Whether the replica holds everything up to `mark`, or, without one, is less than MAX_REPLICA_BEHIND_MS behind. */
  async function replicaServes(mark: bigint | null): Promise<boolean> {
    if (mark !== null) return (last !== undefined && last.replayed >= mark) || (await look()).replayed >= mark;
    const position = last && Date.now() - last.at < LOOK_ANSWERS_MS ? last : await look();
    return position.behindMs < MAX_REPLICA_BEHIND_MS;
  }

  return {
    async wrote(actor) {
      if (actor.kind !== "merchant") return;
      try {
        const { position } = (await PRIMARY_POSITION.execute(primaryDatabase().database)).rows[0]!;
        await redis.noteWalPosition(writeMark(actor.merchantId), position, WRITE_MARK_MS);
      } catch (err) {
        // The write stands; without its mark a read here could miss it, so this process reads the primary meanwhile.
        doubtMarks();
        logger.warn({ err }, "could not note a write's WAL position; reading the primary until marks are trusted again");
      }
    },
    async databaseFor(actor) {
      const now = Date.now();
      if (actor.kind !== "merchant" || now < unsureUntil || now < downUntil) return primaryDatabase();
      try {
        const noted = await redis.get(writeMark(actor.merchantId));
        return (await replicaServes(noted === null ? null : BigInt(noted))) ? replica : primaryDatabase();
      } catch (err) {
        logger.warn({ err }, "could not tell whether the read replica is current; reading the primary");
        return primaryDatabase();
      }
    },
  };
}

/** What one call reads and writes through (see callReads). */
export interface CallReads {
  /** The call's domain context for reads that may lag: `dashboardReads` set, when there is a replica. */
  domain: () => Promise<DomainContext>;
  /** The database the call's reads that may lag settled on so far: the primary until they have. */
  settled: () => Database;
  /** After one of the call's writes committed: notes it, and has its later reads choose again. */
  wrote: () => Promise<void>;
}

/**
 * One call's reads that may lag: the database is chosen at the first of them and kept for the
 * call (until it writes), and reads that cannot wait for the choice (plugin-prisma's) take the one
 * settled on so far. Without a replica, the call's own domain context and the primary, at no cost.
 */
export function callReads(domain: () => Promise<DomainContext>, routing: ReadYourWrites | undefined): CallReads {
  if (!routing) return { domain, settled: primaryDatabase, wrote: async () => {} };
  let settled: Database | undefined;
  let chosen: Promise<Database> | undefined;
  let dashboard: Promise<DomainContext> | undefined;
  return {
    domain: () =>
      (dashboard ??= domain().then((ctx) => {
        // A copy that keeps the context's getters (its logger is made on first use).
        const reading = Object.defineProperties({} as DomainContext, Object.getOwnPropertyDescriptors(ctx));
        reading.dashboardReads = () => (chosen ??= routing.databaseFor(ctx.actor).then((database) => (settled = database)));
        return reading;
      })),
    settled: () => settled ?? primaryDatabase(),
    wrote: async () => {
      // A call whose key was refused wrote nothing.
      const ctx = await domain().catch(() => undefined);
      if (!ctx) return;
      await routing.wrote(ctx.actor);
      chosen = settled = undefined;
    },
  };
}
