import { describe, expect, it } from "vitest";
import { RowShapeError } from "../../src/sql/columns.js";
import { rowShape } from "../../src/sql/statements.js";
import { paymentRequests, transactions } from "../../src/sql/tables.js";

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

describe("a row read through its table", () => {
  it("turns amounts into bigint without losing digits and zone-less timestamps into UTC instants", () => {
    const request = paymentRequests.decode(requestJson, "request");
    expect(request.amount).toBe(9007199254740993n);
    expect(request.expiresAt.toISOString()).toBe("2026-11-27T03:00:00.123Z");
    expect(request.updatedAt.toISOString()).toBe("2026-11-27T02:58:00.123Z");
    expect(request.clientId).toBeNull();
  });

  it("refuses a row that lacks a column, naming the column, instead of reading undefined", () => {
    const { merchantId: _, ...withoutMerchant } = requestJson;
    expect(() => paymentRequests.decode(withoutMerchant, "request")).toThrow(RowShapeError);
    expect(() => paymentRequests.decode(withoutMerchant, "request")).toThrow(
      /payment_request\.merchantId: the statement gave no such column/,
    );
  });

  it("refuses a value of another type, an enum value the schema does not have and a NULL in a NOT NULL column", () => {
    expect(() => paymentRequests.decode({ ...requestJson, paymentExpirySeconds: "120" }, "request")).toThrow(
      /paymentExpirySeconds/,
    );
    expect(() => paymentRequests.decode({ ...requestJson, status: "REFUNDED" }, "request")).toThrow(/status/);
    expect(() => paymentRequests.decode({ ...requestJson, asset: null }, "request")).toThrow(/asset/);
  });

  it("maps a statement's row by its columns, and refuses one the statement did not select", () => {
    const shape = rowShape({ purchase: transactions.pick("id", "amount"), refunds: transactions.columns.amount });
    expect(shape.decode({ purchase: { id: "x", amount: "5" }, refunds: "7" })).toEqual({
      purchase: { id: "x", amount: 5n },
      refunds: 7n,
    });
    expect(() => shape.decode({ purchase: { id: "x", amount: "5" } })).toThrow(/refunds: the statement gave no such column/);
  });
});
