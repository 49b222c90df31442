-- The entity a write made under an idempotency key produced, noted in the write transaction itself.
ALTER TABLE "idempotency_key" ADD COLUMN "entity_id" UUID;
