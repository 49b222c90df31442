/**
 * The benchmark's baseline: the same SQL reads and writes as requests.create and requests.info
 * (API key lookup, configuration items, request and options insert; request, options and purchase
 * read), on plain node:http and pg with no framework and no ORM. A stand-in for this box's limit.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const port = Number(process.env.PORT ?? 0);

async function body(req: IncomingMessage): Promise<Record<string, string>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text ? (JSON.parse(text) as Record<string, string>) : {};
}

async function merchantOf(key: string | undefined): Promise<string | null> {
  const { rows } = await pool.query("SELECT merchant_id FROM api_key WHERE hash = $1 AND revoked_at IS NULL", [
    createHash("sha256")
      .update(key ?? "")
      .digest("hex"),
  ]);
  return rows[0]?.merchant_id ?? null;
}

async function create(merchantId: string, params: Record<string, string>) {
  const items = await pool.query(
    `SELECT i.ledger_id, i.account, i.methods FROM configuration_item i JOIN ledger l ON l.id = i.ledger_id
     WHERE i.merchant_id = $1 AND i.client_id IS NULL AND l.enabled AND i.currency = $2 ORDER BY i.index`,
    [merchantId, params.asset],
  );
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const id = randomUUID();
    const now = new Date();
    const { rows } = await client.query(
      `INSERT INTO payment_request (id, merchant_id, asset, amount, request_code, payment_expiry_seconds, expires_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 120, $6, $7, $7) RETURNING *`,
      [id, merchantId, params.asset, params.amount, randomBytes(8).toString("hex"), new Date(now.getTime() + 120_000), now],
    );
    for (const [index, item] of items.rows.entries()) {
      await client.query(
        "INSERT INTO payment_option (id, request_id, index, ledger_id, amount, account, methods) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        [randomUUID(), id, index, item.ledger_id, params.amount, item.account, item.methods],
      );
    }
    await client.query("COMMIT");
    return { ...rows[0], options: items.rows };
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
}

async function info(merchantId: string, requestId: string) {
  const [request, options, purchase] = await Promise.all([
    pool.query("SELECT * FROM payment_request WHERE id = $1 AND merchant_id = $2", [requestId, merchantId]),
    pool.query("SELECT * FROM payment_option WHERE request_id = $1 ORDER BY index", [requestId]),
    pool.query("SELECT * FROM transaction WHERE request_id = $1 AND type = 'PURCHASE'", [requestId]),
  ]);
  return request.rows[0] ? { ...request.rows[0], options: options.rows, paidBy: purchase.rows[0] } : null;
}

createServer(async (req, res) => {
  try {
    const merchantId = await merchantOf(req.headers["x-api-key"] as string | undefined);
    if (!merchantId) return res.writeHead(401).end();
    const url = new URL(req.url!, "http://x");
    const result =
      url.pathname === "/api/requests.create"
        ? await create(merchantId, await body(req))
        : await info(merchantId, url.searchParams.get("requestId") ?? "");
    res
      .writeHead(result ? 200 : 404, { "content-type": "application/json" })
      .end(JSON.stringify(result, (_k, v) => (typeof v === "bigint" ? Number(v) : v)));
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
}).listen(port, "127.0.0.1", function (this: Server) {
  // The bench starts this with an IPC channel and learns the port from this message.
  process.send?.({ listening: (this.address() as AddressInfo).port });
});
