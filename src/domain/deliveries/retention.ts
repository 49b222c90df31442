import { sql } from "kysely";
import { database } from "../../db.js";
import { amongIds } from "./claim.js";
import { finished, pending } from "./states.js";

/**
 * The retention of deliveries (src/domain/retention/sweeps.ts runs it): each call deletes one
 * batch, of at most `batchSize` rows, in one statement.
 */

/**
 * Deletes up to `batchSize` finished deliveries (DELIVERED, EXHAUSTED, REFUSED or HELD) unchanged
 * since before `cutoff`, found by the index of finished deliveries by `updated_at`, with their
 * attempts (ON DELETE CASCADE), which it counts first; a PENDING delivery is never deleted, however
 * old. Rows another transaction holds are left for the next batch.
 */
export async function deleteFinishedDeliveries(
  cutoff: Date,
  batchSize: number,
): Promise<{ deliveries: number; attempts: number }> {
  const deleted = await database
    .with("doomed", (db) =>
      db
        .selectFrom("delivery as e")
        .select("e.id")
        .where(finished("e"))
        .where("e.updatedAt", "<", cutoff)
        .limit(batchSize)
        .forUpdate()
        .skipLocked(),
    )
    .with("attempts", (db) =>
      db
        .selectFrom("webhookAttempt")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("deliveryId", "in", db.selectFrom("doomed").select("id")),
    )
    .with("deleted", (db) =>
      db
        .deleteFrom("delivery")
        .where("id", "in", db.selectFrom("doomed").select("id"))
        .returning(sql`1`.as("one")),
    )
    .selectNoFrom((eb) => [
      eb
        .selectFrom("deleted")
        .select(sql<number>`count(*)::int`.as("n"))
        .as("deliveries"),
      eb.selectFrom("attempts").select("n").as("attempts"),
    ])
    .executeTakeFirstOrThrow();
  return { deliveries: deleted.deliveries ?? 0, attempts: deleted.attempts ?? 0 };
}

/**
 * Deletes up to `batchSize` destinations' health rows (destination.ts) unchanged since before
 * `cutoff` with no pending delivery: a destination seen again starts as a new one. Answers how many.
 */
export async function deleteIdleDestinations(cutoff: Date, batchSize: number): Promise<number> {
  const { numDeletedRows } = await database
    .deleteFrom("webhookDestination")
    .where(
      amongIds(
        "ctid",
        database
          .selectFrom("webhookDestination as d")
          .select(sql`ctid`.as("ctid"))
          .where("d.updatedAt", "<", cutoff)
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom("delivery as w")
                  .select(sql.lit(1).as("one"))
                  .whereRef("w.destination", "=", "d.id")
                  .where(pending("w")),
              ),
            ),
          )
          .limit(batchSize),
      ),
    )
    .executeTakeFirstOrThrow();
  return Number(numDeletedRows);
}
