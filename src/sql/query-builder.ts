import { CamelCasePlugin, Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from "kysely";
import pg from "pg";
import type { DB } from "../generated/kysely/database.js";
import { prepared } from "./prepared.js";

/**
 * The typed query builder every statement outside GraphQL's Prisma-backed reads is written with.
 * Its tables' types are generated from prisma/schema.prisma (prisma-kysely), with the names the
 * Prisma client uses (`webhookEndpoint.merchantId`), so a statement naming a column the schema does
 * not have, or giving it a value of the wrong type, does not compile.
 */
export type QueryBuilder = Kysely<DB>;

/**
 * Columns are UTC `timestamp(3)` without a zone (Prisma's convention), so plain SQL sends and reads
 * them as zone-less UTC text.
 */
export const toUtcText = (date: Date) => date.toISOString().replace("Z", "");
export const fromUtcText = (text: string) => new Date(`${text}Z`);

/**
 * How PostgreSQL's text becomes values: `timestamp` columns (UTC without a zone) as Dates, `int8`
 * (money) as bigints, and arrays of the schema's enums (`EventType[]`) as arrays, which pg knows
 * only by their type's oid, read from the database once (enumArrayTypes).
 */
const TIMESTAMP: number = pg.types.builtins.TIMESTAMP;
const INT8: number = pg.types.builtins.INT8;
const builtinParser = pg.types.getTypeParser as (oid: number, format?: "text" | "binary") => (text: string) => unknown;
/** text[] (oid 1009), whose parser reads any array of text-like elements. */
const textArray = builtinParser(1009);
const enumArrays = new Set<number>();
const ROW_TYPES = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP
      ? fromUtcText
      : oid === INT8
        ? BigInt
        : enumArrays.has(oid)
          ? textArray
          : builtinParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Learns the oids of the enum array types, on the first connection of a pool. */
async function enumArrayTypes(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query("SELECT a.oid FROM pg_type a JOIN pg_type e ON e.oid = a.typelem WHERE e.typtype = 'e'");
  for (const row of rows as Record<string, unknown>[]) enumArrays.add(Number(row["oid"]));
}

/** A Date parameter travels as UTC text (pg would send the machine's local time), a bigint as its digits. */
const parameter = (value: unknown) =>
  value instanceof Date ? toUtcText(value) : typeof value === "bigint" ? value.toString() : value;

/**
 * The pool as Kysely's driver takes it. Each statement runs as a named prepared statement (src/sql/prepared.ts:
 * one name per compiled text, so a connection parses and plans it once), with the conversions above.
 * A connection lost while a statement or transaction holds it fails that work instead of the process
 * (pg emits it as an error event only the pool's idle clients are listened to for), and is not
 * handed out again.
 */
function statementPool(pool: pg.Pool): PostgresPool {
  let typesRead: Promise<void> | undefined;
  let typesKnown = false;
  // One hold per connection, which Kysely keeps its own object for (a new one per statement would
  // be one more allocation each).
  const holds = new WeakMap<pg.PoolClient, Hold>();
  return {
    async connect() {
      const client = await pool.connect();
      if (!typesKnown) {
        try {
          await (typesRead ??= enumArrayTypes(client));
          typesKnown = true;
        } catch (err) {
          typesRead = undefined;
          client.release(err as Error);
          throw err;
        }
      }
      let hold = holds.get(client);
      if (!hold) holds.set(client, (hold = new Hold(client)));
      hold.take();
      return hold as unknown as PostgresPoolClient;
    },
    // The pool is the process's (src/db.ts), which closes it.
    end: async () => {},
    options: pool.options,
  };
}

const TRANSACTION_CONTROL = new Set(["begin", "commit", "rollback"]);

/** A pool connection as Kysely holds it, from `take` to `release`. */
class Hold {
  #lost: Error | undefined;
  readonly #onError = (err: Error) => (this.#lost = err);

  constructor(private readonly client: pg.PoolClient) {}

  take(): void {
    this.#lost = undefined;
    this.client.on("error", this.#onError);
  }

  query(text: string, values: readonly unknown[]) {
    // A transaction's begin and end (Kysely's own texts) go by the simple protocol, one message each,
    // as `client.query("BEGIN")` would: nothing to parse, bind or plan.
    if (values.length === 0 && TRANSACTION_CONTROL.has(text)) return this.client.query(text);
    return this.client.query({ ...prepared(text, values.map(parameter)), types: ROW_TYPES });
  }

  release(destroy?: boolean): void {
    this.client.removeListener("error", this.#onError);
    this.client.release(this.#lost ?? destroy);
  }
}

/** Kysely's camel-casing, with each name worked out once: it would split a column's name anew for every row. */
class CamelCase extends CamelCasePlugin {
  readonly #camel = new Map<string, string>();
  readonly #snake = new Map<string, string>();

  protected override camelCase(name: string): string {
    let camel = this.#camel.get(name);
    if (camel === undefined) this.#camel.set(name, (camel = super.camelCase(name)));
    return camel;
  }

  protected override snakeCase(name: string): string {
    let snake = this.#snake.get(name);
    if (snake === undefined) this.#snake.set(name, (snake = super.snakeCase(name)));
    return snake;
  }
}

/**
 * The query builder on `pool`. Column names are the schema's fields (camel case) in TypeScript and
 * snake case in SQL; a JSON value's own keys (a webhook's payload, a receipt) are left as stored.
 */
export const queryBuilder = (pool: pg.Pool): QueryBuilder =>
  new Kysely<DB>({
    dialect: new PostgresDialect({ pool: statementPool(pool) }),
    plugins: [new CamelCase({ maintainNestedObjectKeys: true })],
  });
