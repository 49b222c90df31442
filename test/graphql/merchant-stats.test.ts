/**
 * merchantStats against hand-made rows: bucket edges in the merchant's time zone (a 23-hour day and
 * a missing hour where Pacific/Auckland starts daylight saving, hours of a half-hour zone), two
 * assets, a refund, rows outside the range and another merchant's, and the median time to pay.
 */
import { describe, expect, it } from "vitest";
import { payRequest } from "../../src/domain/requests/pay.js";
import { rebuildTakings, rollUpTakings } from "../../src/domain/stats/takings-rollup.js";
import { refundTransaction } from "../../src/domain/transactions/refund.js";
import { buildMerchant, buildPayerKey, buildRequest, operator, payer, type TestMerchant } from "../factories.js";
import { gql } from "../fixtures.js";
import { Stats } from "../operations/dashboard.js";
import { db } from "../prisma.js";

const at = (iso: string) => new Date(iso);

/** A request of `merchant` created at `created`, in `asset`, paid at `paidAt` if given (its rows' times set by hand). */
async function made(
  merchant: TestMerchant,
  { created, amount = 1000, asset = "NZD", paidAt }: { created: string; amount?: number; asset?: string; paidAt?: string },
) {
  const { request } = await buildRequest({ merchant, amount });
  let purchaseId: string | undefined;
  if (paidAt) {
    await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
    const purchase = await db.transaction.findFirstOrThrow({ where: { requestId: request.id, type: "PURCHASE" } });
    await db.transaction.update({ where: { id: purchase.id }, data: { createdAt: at(paidAt) } });
    purchaseId = purchase.id;
  }
  await db.paymentRequest.update({ where: { id: request.id }, data: { createdAt: at(created), asset } });
  return { request, purchaseId };
}

const row = (start: string | null, asset: string, created: number, paid: number, paidAmount: number, refundedAmount: number) => ({
  start,
  asset,
  created,
  paid,
  paidAmount,
  refundedAmount,
});

describe("merchantStats", () => {
  it("counts by the merchant's days across Auckland's 23-hour day, per asset, with refunds and the median time to pay", async () => {
    const [merchant, other] = await Promise.all([buildMerchant(), buildMerchant()]);
    // Local days 27 and 28 September 2026: daylight saving starts at 02:00 on the 27th (NZST +12 → NZDT +13).
    const dayOne = "2026-09-26T12:00:00.000Z";
    const dayTwo = "2026-09-27T11:00:00.000Z";
    const end = "2026-09-28T11:00:00.000Z";
    await made(merchant, { created: dayOne, amount: 1000, paidAt: "2026-09-26T12:10:00.000Z" });
    // The day's last millisecond, paid at the next day's first instant.
    await made(merchant, { created: "2026-09-27T10:59:59.999Z", amount: 2000, paidAt: dayTwo });
    const aud = await made(merchant, {
      created: "2026-09-27T11:30:00.000Z",
      amount: 500,
      asset: "AUD",
      paidAt: "2026-09-27T11:40:00.000Z",
    });
    await refundTransaction(merchant.ctx, { transactionId: aud.purchaseId!, amount: 200 });
    await db.transaction.updateMany({
      where: { purchaseId: aud.purchaseId!, type: "REFUND" },
      data: { createdAt: at("2026-09-28T10:59:59.999Z") },
    });
    // Outside the range, and another merchant's.
    await made(merchant, { created: "2026-09-26T11:59:59.999Z" });
    await made(merchant, { created: end });
    await made(other, { created: dayTwo, paidAt: dayTwo });

    const answer = await gql(Stats, { from: dayOne, to: end, bucket: "DAY", timeZone: "Pacific/Auckland" }, merchant.apiKey);
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.merchantStats).toEqual({
      buckets: [
        row(dayOne, "AUD", 0, 0, 0, 0),
        row(dayOne, "NZD", 2, 1, 1000, 0),
        row(dayTwo, "AUD", 1, 1, 500, 200),
        row(dayTwo, "NZD", 0, 1, 2000, 0),
      ],
      totals: [row(null, "AUD", 1, 1, 500, 200), row(null, "NZD", 2, 2, 3000, 0)],
      // 600 s, 0.001 s and 600 s.
      medianSecondsToPay: 600,
    });
    // The same range in UTC days: three of them, cut elsewhere.
    const utc = await gql(Stats, { from: dayOne, to: end, bucket: "DAY" }, merchant.apiKey);
    expect(utc.data!.merchantStats.buckets.filter((b) => b.asset === "NZD").map((b) => [b.start, b.created, b.paid])).toEqual([
      ["2026-09-26T00:00:00.000Z", 1, 1],
      ["2026-09-27T00:00:00.000Z", 1, 1],
      ["2026-09-28T00:00:00.000Z", 0, 0],
    ]);
    // Rolled up into bins, the same figures.
    expect(await rollUpTakings({ merchantId: merchant.merchantId })).toBe(1);
    expect(await db.takingsBin.count({ where: { merchantId: merchant.merchantId } })).toBeGreaterThan(0);
    // 27 September (UTC) is a whole day of the range: its median comes from the day's histogram.
    expect(
      await db.takingsDay.findMany({
        where: { merchantId: merchant.merchantId },
        select: { day: true, seconds: true, counts: true },
      }),
    ).toEqual(expect.arrayContaining([{ day: at("2026-09-27T00:00:00.000Z"), seconds: [0, 600], counts: [1, 1] }]));
    const rolled = await gql(Stats, { from: dayOne, to: end, bucket: "DAY", timeZone: "Pacific/Auckland" }, merchant.apiKey);
    expect(rolled.errors).toBeUndefined();
    expect(rolled.data).toEqual(answer.data);
    expect((await gql(Stats, { from: dayOne, to: end, bucket: "DAY" }, merchant.apiKey)).data).toEqual(utc.data);
  });

  it("lists every local hour, the missing one skipped where daylight saving starts, and half-hour zones' hours", async () => {
    const merchant = await buildMerchant();
    // 01:00 NZST, then 03:00 NZDT: 02:00 does not happen on 27 September 2026.
    await made(merchant, { created: "2026-09-26T13:59:59.999Z" });
    await made(merchant, { created: "2026-09-26T14:00:00.000Z" });
    const auckland = await gql(
      Stats,
      { from: "2026-09-26T13:00:00.000Z", to: "2026-09-26T15:00:00.000Z", bucket: "HOUR", timeZone: "Pacific/Auckland" },
      merchant.apiKey,
    );
    expect(auckland.data!.merchantStats.buckets.map((b) => [b.start, b.created])).toEqual([
      ["2026-09-26T13:00:00.000Z", 1],
      ["2026-09-26T14:00:00.000Z", 1],
    ]);
    // India is 5:30 ahead: 10:00-11:00 UTC touches the local hours that start at 09:30 and 10:30 UTC.
    const kolkata = await gql(
      Stats,
      { from: "2026-09-26T13:00:00.000Z", to: "2026-09-26T14:00:00.000Z", bucket: "HOUR", timeZone: "Asia/Kolkata" },
      merchant.apiKey,
    );
    expect(kolkata.data!.merchantStats.buckets.map((b) => [b.start, b.created])).toEqual([
      ["2026-09-26T12:30:00.000Z", 0],
      ["2026-09-26T13:30:00.000Z", 1],
    ]);
    expect(kolkata.data!.merchantStats.medianSecondsToPay).toBeNull();
  });

  it("reads the roll-up's bins inside a ragged range and the rows around them, and counts rows written late once rebuilt", async () => {
    const merchant = await buildMerchant();
    // A bin's edge three hours ago; the range starts 7 minutes into that bin.
    const base = Math.floor(Date.now() / 900_000) * 900_000 - 180 * 60_000;
    const after = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    // Before the range, in its ragged first bin, in whole bins, and after the roll-up's bound (five minutes ago at most).
    await made(merchant, { created: after(6), paidAt: after(6.5) });
    await made(merchant, { created: after(8), amount: 100, paidAt: after(9) });
    await made(merchant, { created: after(60), amount: 700, paidAt: after(70) });
    await made(merchant, { created: after(119), asset: "AUD", amount: 300, paidAt: after(121) });
    await made(merchant, { created: minutesAgo(2), amount: 900, paidAt: minutesAgo(1) });
    const range = { from: after(7), to: minutesAgo(-5), bucket: "HOUR" as const, timeZone: "Asia/Kathmandu" };
    const raw = (await gql(Stats, range, merchant.apiKey)).data!.merchantStats;
    expect(raw.totals).toEqual([row(null, "AUD", 1, 1, 300, 0), row(null, "NZD", 3, 3, 1700, 0)]);
    // 60, 60, 120 and 600 seconds: the mean of the middle two.
    expect(raw.medianSecondsToPay).toBe(90);

    await rollUpTakings({ merchantId: merchant.merchantId });
    const through = (await db.takingsRollup.findUniqueOrThrow({ where: { merchantId: merchant.merchantId } })).through;
    expect(Date.now() - through.getTime()).toBeGreaterThanOrEqual(5 * 60_000);
    expect((await gql(Stats, range, merchant.apiKey)).data!.merchantStats).toEqual(raw);

    // A payment written now with a time the roll-up has passed (an import) is counted once the merchant's bins are rebuilt.
    await made(merchant, { created: after(90), amount: 5000, paidAt: after(91) });
    const late = (await gql(Stats, range, merchant.apiKey)).data!.merchantStats;
    expect(late.totals).toEqual(raw.totals);
    await rebuildTakings(operator, { merchantId: merchant.merchantId });
    const rebuilt = (await gql(Stats, range, merchant.apiKey)).data!.merchantStats;
    expect(rebuilt.totals).toEqual([row(null, "AUD", 1, 1, 300, 0), row(null, "NZD", 4, 4, 6700, 0)]);
    expect(rebuilt.medianSecondsToPay).toBe(60);
  });

  it("refuses an unknown or offset time zone, a reversed range, a range too long for its bucket, and a payer key", async () => {
    const merchant = await buildMerchant();
    const day = { from: "2026-01-01T00:00:00Z", to: "2026-01-02T00:00:00Z", bucket: "DAY" as "DAY" | "HOUR" };
    const codeOf = async (
      variables: Parameters<typeof gql<unknown, typeof day & { timeZone?: string }>>[1],
      key = merchant.apiKey,
    ) => (await gql(Stats, variables, key)).errors?.[0]?.extensions?.["code"];
    for (const timeZone of ["Mars/Olympus", "+05:00", "UTC+5", "GMT-3", "../etc/passwd", ""])
      expect(await codeOf({ ...day, timeZone }), timeZone).toBe(timeZone === "" ? undefined : "BAD_REQUEST");
    expect(await codeOf({ ...day, from: day.to, to: day.from })).toBe("BAD_REQUEST");
    expect(await codeOf({ ...day, to: "2026-02-01T00:00:01Z", bucket: "HOUR" })).toBe("BAD_REQUEST");
    expect(await codeOf({ ...day, to: "2026-02-01T00:00:00Z", bucket: "HOUR" })).toBeUndefined();
    expect(await codeOf({ ...day, to: "2027-02-05T00:00:01Z" })).toBe("BAD_REQUEST");
    expect(await codeOf(day, await buildPayerKey())).toBe("FORBIDDEN");
  });
});
