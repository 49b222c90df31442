-- CreateTable
CREATE TABLE "activity" (
    "id" UUID NOT NULL,
    "merchant_id" UUID,
    "request_id" UUID,
    "transaction_id" UUID,
    "action" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "correlation_id" TEXT,
    "outcome" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activity_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "activity_request_id_created_at_idx" ON "activity"("request_id", "created_at");

-- CreateIndex
CREATE INDEX "activity_merchant_id_created_at_idx" ON "activity"("merchant_id", "created_at");


-- The audit trail is append-only: updates and deletes are discarded.
CREATE RULE "activity_no_update" AS ON UPDATE TO "activity" DO INSTEAD NOTHING;
CREATE RULE "activity_no_delete" AS ON DELETE TO "activity" DO INSTEAD NOTHING;
