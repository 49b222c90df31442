/**
 * Rows the bench makes in bulk with SQL, outside any measured run: requests to pay and paid
 * purchases to refund (each measured call gets one of its own), and the rows of the scale section.
 * The rows are those the service writes (src/domain/requests/create.ts and pay.ts):
 * test/bench/seed.test.ts reads them through the service's own mappers, so a column the schema gains
 * and these statements lack fails there.
 */
import { randomBytes } from "node:crypto";
import { sql, type SqlBool } from "kysely";
import type pg from "pg";
import { queryBuilder, type QueryBuilder } from "../src/sql/query-builder.js";
import { AMOUNT } from "./calls.js";

/**
 * The service's query builder (UTC Dates, bigint int8, named prepared statements) on `client`
 * alone: a "pool" of that one connection, never let go, so its statements run in whatever
 * transaction the client is in (bulk's). The bench reaches the database through one pg.Client, not a pool.
 */
function onClient(client: pg.Client): QueryBuilder {
  const connection = {
    query: client.query.bind(client),
    on: client.on.bind(client),
    removeListener: client.removeListener.bind(client),
    release: () => {},
  };
  return queryBuilder({ connect: async () => connection, options: {} } as unknown as pg.Pool);
}

/** A six-character auth code (newAuthCode) of a row `g` of `new`: `g > 0` makes the subquery run for each row. */
const AUTH_CODE = sql<string>`(SELECT string_agg(substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 1 + floor(random() * 32)::int, 1), '')
  FROM generate_series(1, 6) WHERE g > 0)`;

/** receiptFor's text for a purchase of `new`, Base64 on one line. */
const RECEIPT = sql<string>`translate(encode(convert_to(concat_ws(E'\\n', 'PAYMENT RECEIPT',
  ${sql.lit(`Amount: ${AMOUNT} minimum units of NZD`)}, 'Ledger: test.uplink', 'Auth code: ' || auth_code,
  'Time: ' || to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), 'UTF8'), 'base64'), E'\\n', '')`;

/** The columns seedStatement writes of a request and of a purchase (the others keep their defaults). */
const REQUEST_COLUMNS = [
  "id",
  "merchantId",
  "asset",
  "amount",
  "requestCode",
  "shortCode",
  "status",
  "paymentExpirySeconds",
  "expiresAt",
  "createdAt",
  "updatedAt",
] as const;
const PURCHASE_COLUMNS = [
  "id",
  "type",
  "requestId",
  "merchantId",
  "ledgerId",
  "amount",
  "account",
  "authCode",
  "responseCode",
  "paymentType",
  "receipt",
  "settlementDate",
  "createdAt",
  "updatedAt",
] as const;

/**
 * What seedStatement makes: `new`, one row a request (its id, its purchase's id, its number `g`,
 * an auth code, the time), and `items`, the options each request has.
 */
const seedRows = (qb: QueryBuilder, merchantId: string, count: number) =>
  qb
    .with(
      (cte) => cte("new").materialized(),
      (db) =>
        db
          .selectFrom(sql<{ g: number }>`generate_series(1, ${count}::int)`.as<"series">(sql`series(g)`))
          .select([
            sql<string>`gen_random_uuid()`.as("id"),
            sql<string>`gen_random_uuid()`.as("purchaseId"),
            "g",
            AUTH_CODE.as("authCode"),
            sql<Date>`(now() AT TIME ZONE 'UTC')::timestamp(3)`.as("at"),
          ]),
    )
    // paymentOptionsFor: the merchant's items for the asset on enabled ledgers, one per ledger, in item order
    .with("items", (db) =>
      db
        .selectFrom((eb) =>
          eb
            .selectFrom("configurationItem as i")
            .innerJoin("ledger as l", "l.id", "i.ledgerId")
            .distinctOn("i.ledgerId")
            .select(["i.index", "i.ledgerId", "i.account", "i.methods"])
            .where("i.merchantId", "=", merchantId)
            .where("i.clientId", "is", null)
            .where((eb) => eb.ref("l.enabled"))
            .where("i.currency", "=", sql.lit("NZD"))
            .orderBy("i.ledgerId")
            .orderBy("i.index")
            .as("first"),
        )
        .select([sql<number>`(row_number() OVER (ORDER BY index) - 1)::int`.as("index"), "ledgerId", "account", "methods"]),
    );

/** The requests of `new` as requests.create writes them: the request (PAID when `paid`), its options, its `request.created` activity. */
const seedRequestWrites = (rows: ReturnType<typeof seedRows>, merchantId: string, prefix: string, paid: boolean) =>
  rows
    .with("request", (db) =>
      db
        .insertInto("paymentRequest")
        .columns(REQUEST_COLUMNS)
        .expression(
          db
            .selectFrom("new")
            .select([
              "id",
              sql.val(merchantId).as("merchantId"),
              sql.lit("NZD").as("asset"),
              sql.lit(AMOUNT).as("amount"),
              sql<string>`${prefix}::text || '-' || g`.as("requestCode"),
              sql<string>`'bench-' || ${prefix}::text || '-' || g`.as("shortCode"),
              sql.val(paid ? "PAID" : "NEW").as("status"),
              sql.lit(86399).as("paymentExpirySeconds"),
              sql<Date>`at + interval '86399 seconds'`.as("expiresAt"),
              "at as createdAt",
              "at as updatedAt",
            ]),
        ),
    )
    .with("option", (db) =>
      db
        .insertInto("paymentOption")
        .columns(["id", "requestId", "index", "ledgerId", "amount", "account", "methods"])
        .expression(
          db
            .selectFrom("new")
            .crossJoin("items")
            .select([sql<string>`gen_random_uuid()`.as("id"), "new.id as requestId", "items.index", "items.ledgerId"])
            .select([sql.lit(AMOUNT).as("amount"), "items.account", "items.methods"]),
        ),
    )
    .with("created", (db) =>
      db
        .insertInto("activity")
        .columns(["id", "merchantId", "requestId", "action", "actor", "outcome", "createdAt"])
        .expression(
          db
            .selectFrom("new")
            .select([sql<string>`gen_random_uuid()`.as("id"), sql.val(merchantId).as("merchantId"), "id as requestId"])
            .select([sql.lit("request.created").as("action"), sql.lit("bench").as("actor"), sql.lit("NEW").as("outcome")])
            .select("at as createdAt"),
        ),
    );

/** When `paid`, what requests.pay at test.uplink writes of each: the PURCHASE with its receipt, the `request.paid` activity. */
const seedPurchaseWrites = (rows: ReturnType<typeof seedRequestWrites>, merchantId: string, paid: boolean) =>
  rows
    .with("purchase", (db) =>
      db
        .insertInto("transaction")
        .columns(PURCHASE_COLUMNS)
        .expression(
          db
            .selectFrom("new")
            .select(["purchaseId as id", sql.lit("PURCHASE").as("type"), "id as requestId", sql.val(merchantId).as("merchantId")])
            .select([sql.lit("test.uplink").as("ledgerId"), sql.lit(AMOUNT).as("amount"), sql.lit("").as("account")])
            .select(["authCode", sql.lit("00").as("responseCode"), sql.lit("test").as("paymentType"), RECEIPT.as("receipt")])
            .select(["at as settlementDate", "at as createdAt", "at as updatedAt"])
            .where(sql<SqlBool>`${paid}::boolean`),
        ),
    )
    .with("paid", (db) =>
      db
        .insertInto("activity")
        .columns(["id", "merchantId", "requestId", "transactionId", "action", "actor", "outcome", "createdAt"])
        .expression(
          db
            .selectFrom("new")
            .select([sql<string>`gen_random_uuid()`.as("id"), sql.val(merchantId).as("merchantId"), "id as requestId"])
            .select(["purchaseId as transactionId", sql.lit("request.paid").as("action"), sql.lit("bench").as("actor")])
            .select([sql.lit(`PAID ${AMOUNT} at test.uplink`).as("outcome"), "at as createdAt"])
            .where(sql<SqlBool>`${paid}::boolean`),
        ),
    );

/**
 * `count` requests of the merchant as requests.create makes them (NEW, one option per matching
 * configuration item, a `request.created` activity), open for a day; paid, as requests.pay at
 * test.uplink leaves them (PAID, a PURCHASE transaction with its receipt, a `request.paid`
 * activity). One statement; its rows are the requests' ids and their purchases' ids, in the order made.
 */
const seedStatement = (qb: QueryBuilder, merchantId: string, count: number, prefix: string, paid: boolean) =>
  seedPurchaseWrites(seedRequestWrites(seedRows(qb, merchantId, count), merchantId, prefix, paid), merchantId, paid)
    .selectFrom("new")
    .select(["id", "purchaseId"])
    .orderBy("g");

/** Request codes are unique: this run's tag, the batch, the row (a database may be reused: BENCH_DATABASE_URL). */
const run = randomBytes(4).toString("hex");
let batches = 0;

/**
 * Makes `count` requests of the merchant (seedStatement), paid or not. Returns the requests' ids,
 * and the purchases' ids when paid, in the same order. Then VACUUM ANALYZE, so that autovacuum's
 * catching up with the new rows does not fall into a measured run.
 */
export async function seedRequests(
  sql: pg.Client,
  merchantId: string,
  count: number,
  { paid }: { paid: boolean },
): Promise<{ requestIds: string[]; purchaseIds: string[] }> {
  const prefix = `B${run}-${++batches}`;
  const rows = await bulk(sql, () => seedStatement(onClient(sql), merchantId, count, prefix, paid).execute());
  await sql.query(`VACUUM (ANALYZE) payment_request, payment_option, "transaction", activity`);
  return { requestIds: rows.map((row) => row.id), purchaseIds: paid ? rows.map((row) => row.purchaseId) : [] };
}

/**
 * Runs `insert` in a transaction without foreign-key checks when the role may turn them off
 * (a superuser, as on a developer's machine): the rows are consistent by construction, and the
 * checks (each locking the row it finds) would take about half of the time. Other roles insert with the checks.
 */
async function bulk<T>(sql: pg.Client, insert: () => Promise<T>): Promise<T> {
  await sql.query("BEGIN");
  try {
    await sql.query("SAVEPOINT replica");
    await sql.query("SET LOCAL session_replication_role = replica").catch(() => sql.query("ROLLBACK TO SAVEPOINT replica"));
    const result = await insert();
    await sql.query("COMMIT");
    return result;
  } catch (err) {
    await sql.query("ROLLBACK");
    throw err;
  }
}

/** Requests number `from` to `to` of the scale section (the request rows alone: requests.info reads them by id). */
export async function seedScaleRequests(sql: pg.Client, merchantId: string, from: number, to: number): Promise<void> {
  await sql.query(
    `INSERT INTO payment_request (id, merchant_id, asset, amount, request_code, short_code, payment_expiry_seconds, expires_at, created_at, updated_at)
     SELECT gen_random_uuid(), $1, 'NZD', 100 + g, 'S' || g, 'scale-' || g, 120, now() + interval '2 minutes', now(), now() FROM generate_series($2::int, $3::int) g`,
    [merchantId, from, to],
  );
  await sql.query("ANALYZE payment_request");
}
