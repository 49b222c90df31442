import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { queryBuilder } from "../../src/sql/query-builder.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { testEnv } from "../../vitest.config.js";
import { built } from "../built.js";
import { buildRequest, payer } from "../factories.js";
import { startProxy } from "../proxy.js";
import { fileEnv } from "../service-processes.js";
import { eventOf, startReceiver, until } from "./harness.js";

/** A URL of `url`'s service that goes through a proxy the test can cut. */
async function throughProxy(url: string, port: number) {
  const proxy = startProxy(port);
  const proxied = new URL(url);
  proxied.port = String(await proxy.listen());
  return { proxy, url: proxied.toString() };
}

const database = await throughProxy(fileEnv.DATABASE_URL, 5432);
const redis = await throughProxy(testEnv.REDIS_URL, 6379);
afterAll(() => Promise.all([database.proxy.close(), redis.proxy.close()]));

/** Cuts every connection through the proxy once, as a reset would, and lets the next connect. */
async function reset(proxy: ReturnType<typeof startProxy>) {
  proxy.cut();
  await until(proxy.sockets, (open) => open === 0, 5_000, "the connections to be cut");
  proxy.restore();
}

describe("a connection reset", () => {
  it("under a transaction fails that transaction alone; the pool connects again", async () => {
    const cut = new pg.Pool({ connectionString: database.url, max: 1 });
    cut.on("error", () => undefined);
    try {
      const outcome = queryBuilder(cut)
        .transaction()
        .execute(async (trx) => {
          await sql`SELECT 1`.execute(trx);
          await reset(database.proxy);
          // The client is told of the reset while it is checked out: a statement after it fails.
          const refused = await until(
            () =>
              sql`SELECT 1`.execute(trx).then(
                () => null,
                (err: Error) => err,
              ),
            (err) => err !== null,
            5_000,
            "a statement to fail after the reset",
          );
          throw refused!;
        });
      await expect(outcome).rejects.toThrow(/terminated|not queryable/i);
      expect((await cut.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await cut.end();
    }
  });

  it("leaves a worker process up: it says so once per outage and delivers afterwards", async () => {
    const receiver = await startReceiver(() => ({ delayMs: 20 }));
    const child = spawn(process.execPath, built("worker/index.ts"), {
      env: {
        ...process.env,
        LOG_LEVEL: "info",
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        QUEUE_PREFIX: `{test-${randomUUID()}}`,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
        WEBHOOK_RETRY_DELAYS: "100,100,100,100,100,100,100",
        WEBHOOK_RECONCILE_INTERVAL: "1s",
        // An attempt cut off before its start was recorded holds its delivery this long (plus 5 s).
        WEBHOOK_TIMEOUT: "1s",
        WEBHOOK_ISSUER: "payreq-test",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const lines: { level: number; msg: string }[] = [];
    createInterface({ input: child.stdout }).on("line", (line) => lines.push(JSON.parse(line)));
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    let exit: number | null | undefined;
    const exited = new Promise<void>((resolve) => child.once("exit", (code) => resolve(void (exit = code))));
    const pay = async () => {
      const { request } = await buildRequest({ notifyUrl: receiver.url });
      return (await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" })).purchase!;
    };
    const delivered = (purchases: { id: string }[]) =>
      until(
        () => Promise.all(purchases.map((p) => eventOf(p.id))),
        (events) => events.every((e) => e.state === "DELIVERED"),
        30_000,
        "every notification to be delivered",
      );
    try {
      await until(
        () => lines.map((l) => l.msg),
        (msgs) => msgs.includes("worker ready"),
        20_000,
        "the worker to be ready",
      );
      // Resets while deliveries are under way: claims, attempts and their records in transactions.
      const during = [];
      for (let i = 0; i < 3; i++) {
        const burst = Promise.all(Array.from({ length: 20 }, pay));
        await until(
          () => receiver.received.length,
          (n) => n > i * 20,
          20_000,
          "the burst's deliveries to start",
        );
        await reset(database.proxy);
        await reset(redis.proxy);
        during.push(...(await burst));
      }
      await delivered(during);
      await delivered(await Promise.all(Array.from({ length: 5 }, pay)));
      expect(exit).toBeUndefined();
      const said = (what: string) => lines.filter((l) => l.msg === `${what} is unreachable; retrying with backoff`).length;
      expect(said("PostgreSQL")).toBeGreaterThanOrEqual(1);
      expect(said("PostgreSQL")).toBeLessThanOrEqual(3);
      expect(said("Redis")).toBeLessThanOrEqual(3);
      expect(lines.filter((l) => l.level >= 60)).toEqual([]);
      expect(stderr).toBe("");
    } finally {
      child.kill("SIGTERM");
      await exited;
      await receiver.close();
    }
  }, 120_000);
});
