/**
 * Rows the bench makes in bulk with SQL, outside any measured run: requests to pay and paid
 * purchases to refund (each measured call gets one of its own), and the rows of the scale section.
 * The rows are those the service writes (src/domain/requests/create.ts and pay.ts):
 * test/bench/seed.test.ts reads them through the service's own mappers, so a column the schema gains
 * and these statements lack fails there.
 */
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { queryRows, statement } from "../src/sql/statements.js";
import { paymentRequests, transactions } from "../src/sql/tables.js";
import { AMOUNT } from "./calls.js";

/**
 * $1 merchant id, $2 count, $3 request code prefix, $4 paid. Requests as requests.create makes
 * them (NEW, one option per matching configuration item, a `request.created` activity), open for
 * a day; paid, as requests.pay at test.uplink leaves them (PAID, a PURCHASE transaction with its
 * receipt, a `request.paid` activity).
 */
const SEED_REQUESTS = statement(
  `
WITH new AS MATERIALIZED (
  SELECT gen_random_uuid() AS id, gen_random_uuid() AS purchase_id, g,
         -- a six-character auth code per row (newAuthCode); \`g > 0\` makes the subquery run for each row
         (SELECT string_agg(substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 1 + floor(random() * 32)::int, 1), '')
          FROM generate_series(1, 6) WHERE g > 0) AS auth_code,
         (now() AT TIME ZONE 'UTC')::timestamp(3) AS at
  FROM generate_series(1, $2::int) g
), items AS (
  -- paymentOptionsFor: the merchant's items for the asset on enabled ledgers, one per ledger, in item order
  SELECT (row_number() OVER (ORDER BY index) - 1)::int AS index, ledger_id, account, methods FROM (
    SELECT DISTINCT ON (i.ledger_id) i.index, i.ledger_id, i.account, i.methods
    FROM configuration_item i JOIN ledger l ON l.id = i.ledger_id
    WHERE i.merchant_id = $1 AND i.client_id IS NULL AND l.enabled AND i.currency = 'NZD'
    ORDER BY i.ledger_id, i.index) first
), request AS (
  INSERT INTO payment_request (id, merchant_id, asset, amount, request_code, short_code, status, payment_expiry_seconds,
                               expires_at, created_at, updated_at)
  SELECT id, $1, 'NZD', ${AMOUNT}, $3 || '-' || g, 'bench-' || $3 || '-' || g, (CASE WHEN $4::boolean THEN 'PAID' ELSE 'NEW' END)::"RequestStatus",
         86399, at + interval '86399 seconds', at, at
  FROM new
), option AS (
  INSERT INTO payment_option (id, request_id, index, ledger_id, amount, account, methods)
  SELECT gen_random_uuid(), new.id, items.index, items.ledger_id, ${AMOUNT}, items.account, items.methods FROM new CROSS JOIN items
), created AS (
  INSERT INTO activity (id, merchant_id, request_id, action, actor, outcome, created_at)
  SELECT gen_random_uuid(), $1, id, 'request.created', 'bench', 'NEW', at FROM new
), purchase AS (
  INSERT INTO "transaction" (id, type, request_id, merchant_id, ledger_id, amount, account, auth_code, response_code,
                             payment_type, receipt, settlement_date, created_at, updated_at)
  SELECT purchase_id, 'PURCHASE', id, $1, 'test.uplink', ${AMOUNT}, '', auth_code, '00', 'test',
         translate(encode(convert_to(concat_ws(E'\\n', 'PAYMENT RECEIPT', 'Amount: ${AMOUNT} minimum units of NZD',
           'Ledger: test.uplink', 'Auth code: ' || auth_code, 'Time: ' || to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
           'UTF8'), 'base64'), E'\\n', ''),
         at, at, at
  FROM new WHERE $4::boolean
), paid AS (
  INSERT INTO activity (id, merchant_id, request_id, transaction_id, action, actor, outcome, created_at)
  SELECT gen_random_uuid(), $1, id, purchase_id, 'request.paid', 'bench', 'PAID ${AMOUNT} at test.uplink', at
  FROM new WHERE $4::boolean
)
SELECT id, purchase_id FROM new ORDER BY g`,
  { id: paymentRequests.columns.id, purchase_id: transactions.columns.id },
);

/** Request codes are unique: this run's tag, the batch, the row (a database may be reused: BENCH_DATABASE_URL). */
const run = randomBytes(4).toString("hex");
let batches = 0;

/**
 * Makes `count` requests of the merchant (SEED_REQUESTS), paid or not. Returns the requests' ids,
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
  const rows = await bulk(sql, () => queryRows(sql, SEED_REQUESTS, [merchantId, count, prefix, paid]));
  await sql.query(`VACUUM (ANALYZE) payment_request, payment_option, "transaction", activity`);
  return { requestIds: rows.map((row) => row.id), purchaseIds: paid ? rows.map((row) => row.purchase_id) : [] };
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
