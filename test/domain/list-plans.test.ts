import { describe, expect, it } from "vitest";
import { pool } from "../../src/db.js";
import { buildMerchant } from "../factories.js";

/** The plan PostgreSQL picks for a query, as text. */
async function plan(sql: string, params: unknown[]) {
  const { rows } = await pool.query(`EXPLAIN ${sql}`, params);
  return rows.map((row: Record<string, string>) => row["QUERY PLAN"]).join("\n");
}

describe("dashboard list queries", () => {
  it("read a filtered page through indexes, not by scanning the table", async () => {
    const [merchant, neighbour] = await Promise.all([buildMerchant(), buildMerchant()]);
    const merchantIds = [merchant.merchantId, neighbour.merchantId];
    try {
      // Enough rows (of many merchants) that a scan would be the wrong plan. They expire a day from
      // now, so no expiry sweep during the run (this file's or another's) takes them as overdue.
      await pool.query(
        `INSERT INTO payment_request (id, merchant_id, asset, amount, request_code, short_code, payment_expiry_seconds, expires_at, created_at, updated_at, status, external_reference)
         SELECT gen_random_uuid(), CASE WHEN g % 10 = 0 THEN $1::uuid ELSE $2::uuid END,
                'NZD', 100, 'PLAN' || g || '-' || $1, 'PLAN' || g || '-' || $1, 120, now() + interval '1 day', now() - (g || ' seconds')::interval, now(),
                (ARRAY['NEW','PAID','CANCELLED','EXPIRED'])[1 + g % 4]::"RequestStatus", 'plan-' || g
         FROM generate_series(1, 20000) g`,
        merchantIds,
      );
      await pool.query("ANALYZE payment_request");

      const page = await plan(
        `SELECT * FROM payment_request WHERE merchant_id = $1 AND status = 'PAID' AND created_at >= $2 ORDER BY created_at DESC, id DESC LIMIT 21`,
        [merchant.merchantId, new Date(Date.now() - 86_400_000).toISOString()],
      );
      expect(page).not.toMatch(/Seq Scan on payment_request/);
      expect(page).toMatch(/Index (Only )?Scan.*payment_request/);

      // Newest first with id as the tie-break comes straight off one index, with no sort of the merchant's rows.
      const newest = await plan(
        `SELECT * FROM payment_request WHERE merchant_id = $1 ORDER BY created_at DESC, id DESC LIMIT 21`,
        [merchant.merchantId],
      );
      expect(newest).toMatch(/Index Scan using payment_request_merchant_id_created_at_id_idx/);
      expect(newest).not.toMatch(/Sort/);

      const byReference = await plan(`SELECT * FROM payment_request WHERE merchant_id = $1 AND external_reference = $2`, [
        merchant.merchantId,
        "plan-10",
      ]);
      expect(byReference).toMatch(/payment_request_merchant_id_external_reference_key/);
    } finally {
      // The two merchants are this test's own: their rows (only these 20,000) go with it.
      await pool.query("DELETE FROM payment_request WHERE merchant_id = ANY($1::uuid[])", [merchantIds]);
    }
  });
});
