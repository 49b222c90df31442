import { describe, expect, it } from "vitest";
import { requestFromRow } from "../../src/domain/requests/aggregate.js";
import { fromRowJson, RowShapeError } from "../../src/sql/rows.js";

const requestJson = {
  id: "5f0c6c1e-1111-4a4a-8888-000000000001",
  merchantId: "5f0c6c1e-1111-4a4a-8888-000000000002",
  clientId: null,
  externalReference: null,
  asset: "NZD",
  amount: "9007199254740993",
  requestCode: "abc",
  shortCode: "PR-7KX-2QD",
  description: null,
  status: "NEW",
  paymentExpirySeconds: 120,
  expiresAt: "2026-11-27T03:00:00.123",
  notifyUrl: null,
  redirectUrl: null,
  createdAt: "2026-11-27T02:58:00.123",
  updatedAt: "2026-11-27 02:58:00.123",
};

describe("a row read as JSON from its table (src/sql/rows.ts)", () => {
  it("turns amounts into bigint without losing digits and zone-less timestamps into UTC instants", () => {
    const request = fromRowJson("paymentRequest", requestJson);
    expect(request.amount).toBe(9007199254740993n);
    expect(request.expiresAt.toISOString()).toBe("2026-11-27T03:00:00.123Z");
    expect(request.updatedAt.toISOString()).toBe("2026-11-27T02:58:00.123Z");
    expect(request.clientId).toBeNull();
  });

  it("refuses a row that lacks a column, naming the column, instead of reading undefined", () => {
    const { merchantId: _, ...withoutMerchant } = requestJson;
    expect(() => fromRowJson("paymentRequest", withoutMerchant)).toThrow(RowShapeError);
    expect(() => fromRowJson("paymentRequest", withoutMerchant)).toThrow(
      /payment_request\.merchantId: the statement gave no such column/,
    );
  });

  it("refuses a value of another type, an enum value the schema does not have and a NULL in a NOT NULL column", () => {
    expect(() => fromRowJson("paymentRequest", { ...requestJson, paymentExpirySeconds: "120" })).toThrow(/paymentExpirySeconds/);
    expect(() => fromRowJson("paymentRequest", { ...requestJson, status: "REFUNDED" })).toThrow(/status/);
    expect(() => fromRowJson("paymentRequest", { ...requestJson, asset: null })).toThrow(/asset/);
  });

  it("maps a statement's row by its columns, and refuses one the statement did not select", () => {
    const option = {
      id: "o",
      requestId: requestJson.id,
      index: 0,
      ledgerId: "test.uplink",
      amount: "5",
      account: null,
      methods: ["QR_CODE"],
    };
    const read = requestFromRow({ request: requestJson, options: [option], purchases: [], beside: 7 });
    expect(read).toMatchObject({ id: requestJson.id, options: [{ ...option, amount: 5n }], purchase: null, beside: 7 });
    expect(() => requestFromRow({ request: requestJson, options: [option] } as never)).toThrow(
      /transaction: the statement gave no such column/,
    );
  });
});
