-- DropIndex
DROP INDEX "payment_request_merchant_id_created_at_idx";

-- DropIndex
DROP INDEX "transaction_merchant_id_created_at_idx";

-- CreateIndex
CREATE INDEX "payment_request_merchant_id_created_at_id_idx" ON "payment_request"("merchant_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "transaction_merchant_id_created_at_id_idx" ON "transaction"("merchant_id", "created_at" DESC, "id" DESC);

