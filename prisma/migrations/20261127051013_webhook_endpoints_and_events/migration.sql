-- CreateEnum
CREATE TYPE "EventType" AS ENUM ('PAYMENT_COMPLETED', 'REFUND_COMPLETED', 'REQUEST_CANCELLED', 'REQUEST_EXPIRED', 'PING');

-- AlterEnum
ALTER TYPE "WebhookEventState" ADD VALUE 'HELD';

-- AlterTable
ALTER TABLE "webhook_event" ADD COLUMN     "endpoint_id" UUID,
ADD COLUMN     "event_id" UUID,
ADD COLUMN     "type" "EventType",
ALTER COLUMN "request_id" DROP NOT NULL,
ALTER COLUMN "transaction_id" DROP NOT NULL;

-- CreateTable
CREATE TABLE "event" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "type" "EventType" NOT NULL,
    "request_id" UUID NOT NULL,
    "transaction_id" UUID,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_endpoint" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "event_types" "EventType"[] NOT NULL DEFAULT ARRAY[]::"EventType"[],
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" TEXT,
    "disabled_at" TIMESTAMP(3),
    "failing_since" TIMESTAMP(3),
    "recovered_at" TIMESTAMP(3),
    "recovered_count" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_endpoint_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "event_merchant_id_created_at_id_idx" ON "event"("merchant_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "event_request_id_idx" ON "event"("request_id");

-- CreateIndex
CREATE INDEX "webhook_endpoint_merchant_id_created_at_idx" ON "webhook_endpoint"("merchant_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_event_endpoint_id_created_at_id_idx" ON "webhook_event"("endpoint_id", "created_at" DESC, "id" DESC);


-- CreateIndex
CREATE INDEX "webhook_event_event_id_idx" ON "webhook_event"("event_id");

-- AddForeignKey
ALTER TABLE "event" ADD CONSTRAINT "event_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "event" ADD CONSTRAINT "event_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "payment_request"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_endpoint" ADD CONSTRAINT "webhook_endpoint_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_event" ADD CONSTRAINT "webhook_event_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_event" ADD CONSTRAINT "webhook_event_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- An attempt names its delivery's endpoint (no foreign key: it goes with its delivery, which goes
-- with its endpoint), so an endpoint's health reads its latest attempts by one index.
ALTER TABLE "webhook_attempt" ADD COLUMN "endpoint_id" UUID;
CREATE INDEX "webhook_attempt_endpoint_id_started_at_idx" ON "webhook_attempt"("endpoint_id", "started_at" DESC)
  WHERE "endpoint_id" IS NOT NULL;
