-- CreateEnum
CREATE TYPE "WebhookAttemptOutcome" AS ENUM ('DELIVERED', 'FAILED', 'REFUSED');

-- AlterEnum
ALTER TYPE "WebhookEventState" ADD VALUE 'REFUSED';

-- AlterTable
ALTER TABLE "webhook_event" ADD COLUMN     "attempt_limit" INTEGER,
ADD COLUMN     "delivered_at" TIMESTAMP(3),
ADD COLUMN     "enqueued_at" TIMESTAMP(3),
ADD COLUMN     "last_error" TEXT,
ADD COLUMN     "lease_until" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "webhook_attempt" (
    "id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "outcome" "WebhookAttemptOutcome" NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "response_excerpt" TEXT,

    CONSTRAINT "webhook_attempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "signing_key" (
    "kid" TEXT NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMP(3),
    "published_until" TIMESTAMP(3),

    CONSTRAINT "signing_key_pkey" PRIMARY KEY ("kid")
);

-- CreateIndex
CREATE INDEX "webhook_attempt_event_id_number_idx" ON "webhook_attempt"("event_id", "number");

-- CreateIndex
CREATE INDEX "webhook_event_merchant_id_created_at_idx" ON "webhook_event"("merchant_id", "created_at");

-- AddForeignKey
ALTER TABLE "webhook_attempt" ADD CONSTRAINT "webhook_attempt_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_event"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- One current signing key at a time.
CREATE UNIQUE INDEX "signing_key_one_current" ON "signing_key" ((true)) WHERE "retired_at" IS NULL;

-- The worker's drain looks only at pending events not yet handed to its queue.
CREATE INDEX "webhook_event_undrained" ON "webhook_event"("created_at") WHERE "state" = 'PENDING' AND "enqueued_at" IS NULL;
