/**
 * A short code is drawn at random, so a create may draw one that is taken: it draws again. The
 * draw is replaced here (vi.mock, so this file has a process of its own: vitest.config.ts) to
 * hand out a taken code first.
 */
import { expect, it, vi } from "vitest";
import { createRequest } from "../../src/domain/requests/create.js";
import { buildMerchant } from "../factories.js";

const draws = vi.hoisted(() => ({ queue: [] as string[] }));
vi.mock("../../src/domain/requests/request-code.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/domain/requests/request-code.js")>();
  return { ...original, newShortCode: () => draws.queue.shift() ?? original.newShortCode() };
});

it("draws the short code again when the one drawn is taken, and still creates the request once", async () => {
  const merchant = await buildMerchant();
  const create = () => createRequest(merchant.ctx, { merchantId: merchant.merchantId, asset: "NZD", amount: 1 });
  const first = await create();
  draws.queue.push(first.shortCode, first.shortCode, "PR-ZZZ-" + first.shortCode.slice(-3));
  const second = await create();
  expect(draws.queue).toEqual([]);
  expect(second.shortCode).not.toBe(first.shortCode);
  expect(second.id).not.toBe(first.id);
});
