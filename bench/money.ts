/**
 * The money path at one connection count: requests.pay (REST and GraphQL) and transactions.refund,
 * and the baseline's pay and refund, each call on a request or purchase of its own, made in bulk
 * beforehand (seed.ts), with the serving process's CPU per call.
 */
import type { Options } from "autocannon";
import { gqlPay, payBody, refundBody, type Bench } from "./calls.js";
import { idSupply, load } from "./load.js";
import { poolSize, type BenchOptions } from "./options.js";
import { record } from "./report.js";
import { seedRequests } from "./seed.js";

export async function measureMoneyPath(bench: Bench, options: BenchOptions, c: number): Promise<void> {
  const { api, baseline, headers, payerHeaders, merchantId, sql, timing, pids } = bench;
  const size = poolSize(options);
  const started = Date.now();
  const requests = (await seedRequests(sql, merchantId, 3 * size, { paid: false })).requestIds;
  const purchases = (await seedRequests(sql, merchantId, 2 * size, { paid: true })).purchaseIds;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`  (made ${requests.length} requests and ${purchases.length} paid purchases for c=${c} in ${seconds} s)`);
  /** The `n`th pool of `size` ids. */
  const pool = (ids: string[], n: number) => ids.slice(n * size, (n + 1) * size);

  // Each run POSTs to the API or the baseline, each call with a body made from the next id of its own pool.
  const runs = [
    ["rest.pay", "REST", "requests.pay", "API", "/api/requests.pay", payerHeaders, pool(requests, 0), payBody],
    ["graphql.pay", "GraphQL", "requestPay", "API", "/graphql", payerHeaders, pool(requests, 1), gqlPay],
    ["baseline.pay", "baseline", "pay", "baseline", "/api/requests.pay", payerHeaders, pool(requests, 2), payBody],
    ["rest.refund", "REST", "transactions.refund", "API", "/api/transactions.refund", headers, pool(purchases, 0), refundBody],
    ["baseline.refund", "baseline", "refund", "baseline", "/api/transactions.refund", headers, pool(purchases, 1), refundBody],
  ] as const;
  for (const [key, section, operation, server, path, callHeaders, ids, body] of runs) {
    const next = idSupply(ids, `${path.endsWith("refund") ? "purchases" : "requests"} for ${key}`);
    const run: Options = {
      url: `${server === "API" ? api : baseline}${path}`,
      connections: c,
      requests: [{ method: "POST", headers: callHeaders, setupRequest: (req) => ({ ...req, body: body(next()) }) }],
    };
    const pid = server === "API" ? pids.api : pids.baseline;
    record(key, section, operation, c, await load(run, timing, pid), { cpuOf: server });
  }
}
