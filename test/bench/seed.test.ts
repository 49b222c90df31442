import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { AMOUNT } from "../../bench/calls.js";
import { seedRequests, seedScaleRequests } from "../../bench/seed.js";
import { findRequestDetails, type RequestDetails } from "../../src/domain/requests/aggregate.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { receiptFor } from "../../src/domain/transactions/receipt.js";
import { buildRequest, payer } from "../factories.js";

const client = new pg.Client({ connectionString: process.env["DATABASE_URL"] });
await client.connect();
afterAll(() => client.end());

/** What a request and its purchase hold beyond their ids, codes and times. */
const contents = (request: RequestDetails) => ({
  status: request.status,
  asset: request.asset,
  amount: request.amount,
  options: request.options.map(({ index, ledgerId, amount, account, methods }) => ({
    index,
    ledgerId,
    amount,
    account,
    methods,
  })),
  purchase: request.purchase && {
    type: request.purchase.type,
    state: request.purchase.state,
    ledgerId: request.purchase.ledgerId,
    amount: request.purchase.amount,
    responseCode: request.purchase.responseCode,
    receipt: request.purchase.receipt,
  },
});

describe("the bench's seeded rows", () => {
  it("are the rows the service writes: each reads through the service's own mapper as a request made and paid through it", async () => {
    const { merchant, request } = await buildRequest({ amount: AMOUNT });
    const paid = await payRequest(payer, { requestId: request.id, authorization: "any-token", ledger: "test.uplink" });

    const { requestIds } = await seedRequests(client, merchant.merchantId, 2, { paid: true });
    const seeded = await Promise.all(requestIds.map((requestId) => findRequestDetails({ requestId })));

    for (const row of seeded) {
      const purchase = row!.purchase!;
      const receipt = receiptFor({
        kind: "PURCHASE",
        amount: purchase.amount,
        asset: row!.asset,
        ledgerId: purchase.ledgerId,
        authCode: purchase.authCode,
        at: purchase.createdAt,
      });
      expect(purchase.receipt).toBe(receipt);
      expect(contents(row!)).toEqual({ ...contents(paid), purchase: { ...contents(paid).purchase, receipt } });
    }
  });

  it("of the scale section read as requests", async () => {
    const { merchant } = await buildRequest();
    const n = 1_000_000 + Math.floor(Math.random() * 1_000_000_000);
    await seedScaleRequests(client, merchant.merchantId, n, n);
    const seeded = await findRequestDetails({ requestCode: `S${n}`, merchantId: merchant.merchantId });
    expect(seeded).toMatchObject({ status: "NEW", asset: "NZD", amount: BigInt(100 + n), options: [], purchase: null });
  });
});
