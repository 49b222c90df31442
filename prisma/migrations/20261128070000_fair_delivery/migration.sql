-- Fair delivery: each delivery names the destination that the worker counts it under (its endpoint,
-- or the notifyUrl host of its merchant), and the health of each destination is kept where it changes.

-- AlterTable
ALTER TABLE "webhook_event" ADD COLUMN "destination" UUID;

-- The rows written before: a delivery to an endpoint goes to that endpoint, a notification to an id
-- made from its merchant and the host of its URL, as src/domain/webhooks/deliveries/destination.ts does.
UPDATE "webhook_event" SET "destination" = COALESCE("endpoint_id", md5(
  "merchant_id"::text || ' ' || lower(split_part(split_part(split_part(split_part(split_part("url", '://', 2), '/', 1), '?', 1), '#', 1), '@', -1)))::uuid);

ALTER TABLE "webhook_event" ALTER COLUMN "destination" SET NOT NULL;

-- CreateTable
CREATE TABLE "webhook_destination" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "quick" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_destination_pkey" PRIMARY KEY ("id")
);

-- What the claim reads (src/domain/webhooks/deliveries/claim.ts): the deliveries waiting for a turn,
-- by destination and time, those in flight (given a job, not finished), few however long the backlog,
-- and the waiting test events, which have a lane of their own.
CREATE INDEX "webhook_event_waiting_idx" ON "webhook_event" ("destination", "next_attempt_at")
  WHERE "state" = 'PENDING' AND "enqueued_at" IS NULL AND "type" IS DISTINCT FROM 'PING';
CREATE INDEX "webhook_event_in_flight_idx" ON "webhook_event" ("destination")
  WHERE "state" = 'PENDING' AND "enqueued_at" IS NOT NULL;
CREATE INDEX "webhook_event_waiting_ping_idx" ON "webhook_event" ("next_attempt_at")
  WHERE "state" = 'PENDING' AND "type" = 'PING';

-- The claim it replaces read waiting rows by creation, which nothing reads now.
DROP INDEX "webhook_event_undrained";
