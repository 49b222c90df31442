/**
 * The typed query builder's conversions (src/sql/query-builder.ts), on the real database: what a
 * statement reads and writes is what Prisma reads and writes, whatever the process's time zone.
 */
import { afterEach, describe, expect, it } from "vitest";
import { database, db } from "../../src/db.js";
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
