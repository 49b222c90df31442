/**
 * Scale: requests.info p99 with N more requests of the merchant in the database, and a dashboard's
 * first page of a merchant with as many requests as the largest step.
 */
import { gqlList, infoOfAny, type Bench } from "./calls.js";
import { load } from "./load.js";
import type { BenchOptions } from "./options.js";
import { record } from "./report.js";
import { seedScaleRequests } from "./seed.js";

/** requests.info p99 (ms) at each step. */
export async function measureScale(bench: Bench, options: BenchOptions): Promise<Record<number, number>> {
  const { api, headers, merchantId, sql, timing, pids } = bench;
  const scale: Record<number, number> = {};
  let seeded = 0;
  for (const size of options.scale) {
    await seedScaleRequests(sql, merchantId, seeded + 1, size);
    seeded = size;
    // The merchant's own: other sections make requests of other merchants, which its key cannot read.
    const ids = (
      await sql.query("SELECT id FROM payment_request TABLESAMPLE SYSTEM (1) WHERE merchant_id = $1 LIMIT 2000", [merchantId])
    ).rows.map((r: { id: string }) => r.id);
    const info = infoOfAny(api, headers, ids);
    const label = `info @ ${size.toLocaleString("en")} rows`;
    scale[size] = record(`scale.info.${size}`, "scale", label, 16, await load(info, timing, pids.api), { cpuOf: "API" }).p99;
  }
  const list = { url: api, connections: 16, requests: [{ method: "POST" as const, path: "/graphql", headers, body: gqlList }] };
  const label = `paymentRequests(first: 20) @ ${options.scale[1].toLocaleString("en")}`;
  record("scale.list", "scale", label, 16, await load(list, timing, pids.api), { cpuOf: "API" });
  return scale;
}
