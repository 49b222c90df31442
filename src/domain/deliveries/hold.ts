import type { SelectQueryBuilder } from "kysely";
import { database } from "../../db.js";
import { HELD, notTestEvent, pending, unleased } from "./states.js";

/**
 * Holds, as of `now`, the waiting deliveries (PENDING, no attempt in flight, not test events) to
 * the endpoints `endpoints` selects (their ids): a CTE of the statement that disables them, built
 * on its own since it reads nothing of that statement but `endpoints`. What an endpoint's update
 * does when the merchant disables it; the worker holds a delivery whose endpoint is disabled when
 * its attempt comes, and those of an endpoint it disables (attempts.ts).
 */
export const holdWaitingDeliveries = (endpoints: SelectQueryBuilder<never, never, { id: string }>, now: Date) =>
  database
    .updateTable("delivery as e")
    .set({ ...HELD, updatedAt: now })
    .where("e.endpointId", "in", endpoints)
    .where(pending("e"))
    .where(notTestEvent("e"))
    .where(unleased("e", now));
