/**
 * The typed query builder's conversions (src/sql/query-builder.ts), on the real database: what a
 * statement reads and writes is what Prisma reads and writes, whatever the process's time zone.
 */
import { afterEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { database } from "../../src/db.js";
import { db } from "../prisma.js";
import { compiled } from "../../src/sql/compiled.js";
import { fromRowJson, fromRowsJson, rowJson, rowsJson } from "../../src/sql/rows.js";
import { buildEndpoint, buildMerchant, buildWallet } from "../factories.js";

const zone = process.env["TZ"];
afterEach(() => {
  if (zone === undefined) delete process.env["TZ"];
  else process.env["TZ"] = zone;
});

describe("the query builder", () => {
  it("writes and reads timestamps as UTC in a process whose time zone is not UTC", async () => {
    process.env["TZ"] = "Pacific/Auckland";
    const endpoint = await buildEndpoint(await buildMerchant());
    const at = new Date("2026-01-02T03:04:05.678Z");
    await database.updateTable("webhookEndpoint").set({ failingSince: at }).where("id", "=", endpoint.id).execute();

    const read = await database
      .selectFrom("webhookEndpoint")
      .select("failingSince")
      .where("id", "=", endpoint.id)
      .executeTakeFirstOrThrow();
    expect(read.failingSince?.toISOString()).toBe(at.toISOString());
    // Prisma, which reads the columns as UTC, sees the same instant.
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).failingSince?.toISOString()).toBe(
      at.toISOString(),
    );
  });

  it("reads money (int8) as bigints, beyond what a number holds exactly", async () => {
    const wallet = await buildWallet(5);
    const balance = 2n ** 60n + 1n;
    await database.updateTable("sandboxWallet").set({ balance }).where("id", "=", wallet.walletId).execute();
    const read = await database
      .selectFrom("sandboxWallet")
      .select("balance")
      .where("id", "=", wallet.walletId)
      .executeTakeFirstOrThrow();
    expect(read.balance).toBe(balance);
  });

  it("reads arrays of the schema's enums as arrays", async () => {
    const endpoint = await buildEndpoint(await buildMerchant(), { eventTypes: ["PAYMENT_COMPLETED", "REFUND_COMPLETED"] });
    const read = await database
      .selectFrom("webhookEndpoint")
      .select("eventTypes")
      .where("id", "=", endpoint.id)
      .executeTakeFirstOrThrow();
    expect(read.eventTypes).toEqual(["PAYMENT_COMPLETED", "REFUND_COMPLETED"]);
  });
});

describe("JSON values", () => {
  it("keep their own keys: only column names are camel-cased", async () => {
    const { rows } = await sql<{
      storedValue: unknown;
    }>`SELECT '{"request_id": {"auth_code": [{"a_b": 1}]}}'::jsonb AS stored_value`.execute(database);
    expect(rows).toEqual([{ storedValue: { request_id: { auth_code: [{ a_b: 1 }] } } }]);
  });
});

describe("rows selected as JSON (src/sql/rows.ts)", () => {
  it("read back as the columns read them: timestamps in UTC, money beyond 2^53, enum arrays, nulls", async () => {
    process.env["TZ"] = "Pacific/Auckland";
    const wallet = await buildWallet(5);
    const balance = 2n ** 60n + 1n;
    await database.updateTable("sandboxWallet").set({ balance }).where("id", "=", wallet.walletId).execute();
    const endpoint = await buildEndpoint(await buildMerchant(), { eventTypes: ["PAYMENT_COMPLETED", "REFUND_COMPLETED"] });

    const row = await database
      .selectNoFrom([
        rowsJson("sandboxWallet", sql`x.id = ${wallet.walletId}`).as("wallets"),
        rowsJson("webhookEndpoint", sql`x.id = ${endpoint.id}`, "x.created_at").as("endpoints"),
        rowsJson("webhookEndpoint", sql`false`).as("none"),
      ])
      .executeTakeFirstOrThrow();

    const [read] = fromRowsJson("sandboxWallet", row.wallets);
    const stored = await db.sandboxWallet.findUniqueOrThrow({ where: { id: wallet.walletId } });
    expect(read).toEqual({ ...stored, balance });
    expect(fromRowsJson("webhookEndpoint", row.endpoints)).toEqual([
      await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } }),
    ]);
    expect(fromRowsJson("webhookEndpoint", row.none)).toEqual([]);
  });

  it("one row as an object", async () => {
    const endpoint = await buildEndpoint(await buildMerchant());
    const { found } = await database
      .selectFrom("webhookEndpoint as e")
      .select(rowJson("webhookEndpoint", "e").as("found"))
      .where("e.id", "=", endpoint.id)
      .executeTakeFirstOrThrow();
    expect(fromRowJson("webhookEndpoint", found)).toEqual(
      await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } }),
    );
  });
});

describe("statements compiled once (src/sql/compiled.ts)", () => {
  const walletsOver = compiled<{ currency: string; least: bigint; ids: string[] }, { id: string; balance: bigint }>((qb, param) =>
    qb
      .selectFrom("sandboxWallet")
      .select(["id", "balance"])
      .where("currency", "=", param("currency"))
      .where("balance", ">", param("least"))
      .where("id", "=", sql<string>`any(${param("ids")}::uuid[])`)
      .orderBy("balance"),
  );

  it("takes each call's values in their places, whatever the first call's were", async () => {
    const wallets = [await buildWallet(5), await buildWallet(50), await buildWallet(500)];
    const ids = wallets.map((wallet) => wallet.walletId);
    expect(await walletsOver(database, { currency: "NZD", least: 10n, ids })).toEqual([
      { id: ids[1], balance: 50n },
      { id: ids[2], balance: 500n },
    ]);
    expect(await walletsOver(database, { currency: "NZD", least: 100n, ids })).toEqual([{ id: ids[2], balance: 500n }]);
    expect(await walletsOver(database, { currency: "EUR", least: 0n, ids })).toEqual([]);
  });
});
