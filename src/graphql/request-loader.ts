import DataLoader from "dataloader";
import { findRequestDetailsByIds, type RequestDetails } from "../domain/requests/aggregate.js";
import type { QueryBuilder } from "../sql/query-builder.js";

/**
 * The requests one call reaches through transactions and webhook events, each read as the whole
 * aggregate (the PaymentRequest type's fields read its options and purchase from it), all the
 * requests of one tick of the call in one statement, on the database `on` names then. Made on first use.
 */
export function requestLoader(on: () => QueryBuilder): (requestId: string) => Promise<RequestDetails> {
  let loader: DataLoader<string, RequestDetails> | undefined;
  const load = async (ids: readonly string[]) => {
    const found = new Map((await findRequestDetailsByIds(ids, on())).map((request) => [request.id, request]));
    return ids.map((id) => found.get(id) ?? new Error(`payment request ${id} not found`));
  };
  return (requestId) => (loader ??= new DataLoader(load)).load(requestId);
}
