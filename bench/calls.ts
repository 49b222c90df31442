/** What the bench sends: the keys it calls with, and the body of each operation over each transport. */
import type pg from "pg";
import type { LoadTiming } from "./load.js";

/** The amount (minimum units of NZD) of every request the bench makes; a refund returns all of it. */
export const AMOUNT = 300;

/** What every section needs: where the servers are, who calls, the database, the run's timing. */
export interface Bench {
  api: string;
  baseline: string;
  /** The service's API and worker, and the baseline server. */
  pids: { api: number; worker: number; baseline: number };
  merchantId: string;
  /** Merchant key and JSON content type. */
  headers: Record<string, string>;
  /** Payer key and JSON content type. */
  payerHeaders: Record<string, string>;
  sql: pg.Client;
  timing: LoadTiming;
}

export const createBody = (merchantId: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ merchantId, asset: "NZD", amount: AMOUNT, ...extra });

export const payBody = (requestId: string) => JSON.stringify({ requestId, ledger: "test.uplink", authorization: "bench" });

/** A full refund of a purchase of AMOUNT. */
export const refundBody = (transactionId: string) => JSON.stringify({ transactionId, amount: AMOUNT });

export const gqlCreate = (merchantId: string) =>
  JSON.stringify({
    query: `mutation($m: ID!) { requestCreate(input: { merchantId: $m, asset: "NZD", amount: ${AMOUNT} }) { ... on PaymentRequest { id requestCode status } ... on Error { code } } }`,
    variables: { m: merchantId },
  });

export const gqlInfo = (id: string) =>
  JSON.stringify({
    query: `query($id: ID) { paymentRequest(id: $id) { id status requestCode denomination { amount asset } payments { ledger amount } paidBy { id } } }`,
    variables: { id },
  });

export const gqlPay = (id: string) =>
  JSON.stringify({
    query: `mutation($i: RequestPayInput!) { requestPay(input: $i) { ... on PaymentRequest { id status paidBy { id } } ... on Error { code } } }`,
    variables: { i: { requestId: id, ledger: "test.uplink", authorization: "bench" } },
  });

/** A dashboard's first page of requests. */
export const gqlList = JSON.stringify({
  query: `{ paymentRequests(first: 20) { edges { node { id status createdAt denomination { amount asset } } } pageInfo { hasNextPage endCursor } } }`,
});

/** requests.info at 16 connections, each call for one of `ids` picked at random. */
export const infoOfAny = (api: string, headers: Record<string, string>, ids: string[]) => ({
  url: api,
  connections: 16,
  requests: [
    {
      method: "GET" as const,
      setupRequest: (req: object) => ({
        ...req,
        path: `/api/requests.info?requestId=${ids[Math.floor(Math.random() * ids.length)]}`,
      }),
      headers,
    },
  ],
});

/** requests.pay at 16 connections, each call paying the next of a supply of distinct payable requests. */
export const payEach = (api: string, payerHeaders: Record<string, string>, next: () => string) => ({
  url: `${api}/api/requests.pay`,
  connections: 16,
  requests: [
    { method: "POST" as const, headers: payerHeaders, setupRequest: (req: object) => ({ ...req, body: payBody(next()) }) },
  ],
});
