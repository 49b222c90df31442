/**
 * The service behind PgBouncer in transaction mode (scripts/engines/pgbouncer.ts), as most managed
 * PostgreSQL offerings put it: DATABASE_URL names the pooler, DATABASE_PREPARED_STATEMENTS=false,
 * and DATABASE_DIRECT_URL names PostgreSQL itself for what a pooler cannot carry (the worker's
 * LISTEN, migrations). The pay races run through it, and the reasons for both settings are shown:
 * named statements and a LISTEN through the pooler fail.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dropDatabase } from "../../scripts/start/database-admin.js";
import { throughPgbouncer } from "../../scripts/engines/pgbouncer.js";
import { buildPayerKey } from "../factories.js";
import { raceToPay, raceToRefund, type Outcome } from "../races.js";
import { startApiProcess } from "../service-processes.js";
import { until } from "../until.js";
import { startReceiver } from "../worker/harness.js";
import { startService } from "./service.js";

const direct = process.env["DATABASE_URL"]!;
const pooled = throughPgbouncer(direct, inject("engines").pgbouncer.port);
const behindPooler = { DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct, DATABASE_PREPARED_STATEMENTS: "false" };

let service: Awaited<ReturnType<typeof startService>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let payerKey: string;

beforeAll(async () => {
  [receiver, payerKey] = await Promise.all([startReceiver(), buildPayerKey()]);
  // The outbox is reconciled only every 5 minutes: a notification delivered sooner was announced by
  // the worker's LISTEN.
  service = await startService(behindPooler, { WEBHOOK_RECONCILE_INTERVAL: "5m" });
});

afterAll(async () => {
  await service?.stop();
  await receiver?.close();
});

/** A REST call's outcome: "OK" for 200, else the code it answered with. */
async function call(base: string, operation: string, apiKey: string, json: object): Promise<Outcome> {
  const response = await fetch(`${base}/api/${operation}`, {
    method: "POST",
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    body: JSON.stringify(json),
  });
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  return response.status === 200 ? "OK" : (body.message ?? `HTTP ${response.status}`);
}

const payThrough =
  (base: string) =>
  ({ requestId, walletId }: { requestId: string; walletId: string }) =>
    call(base, "requests.pay", payerKey, { requestId, ledger: "sandbox.nzd.wallet", paymentAuthorization: walletId });

describe("the service with DATABASE_URL at a transaction-mode PgBouncer and DATABASE_PREPARED_STATEMENTS=false", () => {
  it("takes one of 50 pays of one request at once, refusing the rest, and the worker's LISTEN announces its notification", async () => {
    const { event } = await raceToPay(payThrough(service.api.base), { notifyUrl: receiver.url });
    await until(
      () => receiver.of(event.id).length,
      (calls) => calls > 0,
      10_000,
      () => `the notification to be delivered:\n${service.worker.log()}`,
    );
    expect(receiver.of(event.id)).toHaveLength(1);
  });

  it("never refunds more than the purchase when 20 partial refunds race", async () => {
    await raceToRefund(({ merchant, ...refund }) => call(service.api.base, "transactions.refund", merchant.apiKey, refund));
  });
});

describe("what the two settings avoid", () => {
  it("with named prepared statements, pays through the pooler fail: a statement prepared on one server connection is missing on another", async () => {
    // At its default pool of 20 the API has more connections than the pooler has server connections
    // (10), so its transactions must move between them; with the tests' pools of 6 they might not.
    const api = await startApiProcess({ ...behindPooler, DATABASE_PREPARED_STATEMENTS: "true", DATABASE_POOL_SIZE: "20" });
    try {
      await expect(raceToPay(payThrough(api.base))).rejects.toThrow();
      expect(api.output()).toMatch(/prepared statement \\?"payreq_\d+\\?" (does not exist|already exists)/);
    } finally {
      api.kill();
    }
  });

  it("a LISTEN through the pooler stays on a server connection that other clients' transactions then use: they hear its notifications, it does not", async () => {
    const channel = `pooled_${randomBytes(4).toString("hex")}`;
    const clients: pg.Client[] = [];
    const heard = new Map<pg.Client, number>();
    const connect = async () => {
      const client = new pg.Client({ connectionString: pooled });
      client.on("error", () => {});
      client.on("notification", () => heard.set(client, (heard.get(client) ?? 0) + 1));
      clients.push(client);
      await client.connect();
      return client;
    };
    const backendOf = async (client: pg.Client) =>
      (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    try {
      const listener = await connect();
      // One message, so one transaction, on one server connection: the LISTEN and that connection's backend.
      const [, which] = (await listener.query(`LISTEN ${channel}; SELECT pg_backend_pid() AS pid`)) as unknown as pg.QueryResult<{
        pid: number;
      }>[];
      const backend = which!.rows[0]!.pid;
      // Other clients open transactions through the pooler, each keeping its server connection,
      // until one runs on the listener's backend (the pooler has 10).
      let other: pg.Client | undefined;
      for (let tries = 0; tries < 10 && !other; tries += 1) {
        const client = await connect();
        await client.query("BEGIN");
        if ((await backendOf(client)) === backend) other = client;
      }
      expect(other, "no transaction through the pooler ran on the listener's server connection").toBeDefined();
      const sender = new pg.Client({ connectionString: direct });
      await sender.connect();
      await sender.query(`NOTIFY ${channel}`);
      await sender.end();
      // PostgreSQL tells a session in a transaction of a notification when the transaction ends.
      await other!.query("COMMIT");
      await until(
        () => heard.get(other!) ?? 0,
        (n) => n > 0,
        5_000,
      );
      expect({ listener: heard.get(listener) ?? 0, other: heard.get(other!) }).toEqual({ listener: 0, other: 1 });
    } finally {
      await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    }
  });
});

describe("migrations with DATABASE_URL at the pooler", () => {
  it("npm run db:deploy creates and migrates the database through DATABASE_DIRECT_URL, leaving no lock held", async () => {
    const database = new URL(direct);
    database.pathname = `${database.pathname}_deploy`;
    const fresh = database.toString();
    try {
      const { code, output } = await run("npm", ["run", "--silent", "db:deploy"], {
        DATABASE_URL: throughPgbouncer(fresh, inject("engines").pgbouncer.port),
        DATABASE_DIRECT_URL: fresh,
      });
      expect(code, output).toBe(0);
      expect(output).toMatch(/created the database .* at 127\.0\.0\.1:5432/);
      expect(output).toContain("migrations applied");
      const name = decodeURIComponent(database.pathname.slice(1));
      const client = new pg.Client({ connectionString: direct });
      await client.connect();
      try {
        const locks = await client.query(
          "SELECT count(*)::int AS held FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND d.datname = $1",
          [name],
        );
        expect(locks.rows[0]).toEqual({ held: 0 });
        const applied = new pg.Client({ connectionString: fresh });
        await applied.connect();
        const { rows } = await applied.query("SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NULL");
        await applied.end();
        expect(rows[0]).toEqual({ n: 0 });
      } finally {
        await client.end();
      }
    } finally {
      await dropDatabase(fresh);
    }
  });
});

/** Runs a command in the project with this file's environment and `env`, to its exit. */
function run(command: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.once("close", (code) => resolve({ code, output }));
  });
}
