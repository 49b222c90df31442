-- A row of webhook_event is one delivery: a notification to a request's notifyUrl, or an event to
-- one of the merchant's endpoints. The table, its state enum and every name derived from them are
-- renamed to say so (model Delivery, table delivery, enum DeliveryState), and an attempt's column
-- that names its delivery becomes delivery_id. Renames only: no row is rewritten, no index rebuilt,
-- and each statement takes its lock for an instant. The public names (GraphQL's WebhookEvent,
-- WebhookEventState and webhookEvents, REST's, the error codes) do not change. No trigger, function,
-- rule or view names the table, and the NOTIFY channel (webhook_events) is no object: it keeps its name.

-- The table and its enum type (enum types keep their schema names, unmapped, like the others).
ALTER TABLE "webhook_event" RENAME TO "delivery";
ALTER TYPE "WebhookEventState" RENAME TO "DeliveryState";

-- The names Prisma derives from the table: the primary key, the foreign keys and the indexes of the schema.
ALTER TABLE "delivery" RENAME CONSTRAINT "webhook_event_pkey" TO "delivery_pkey";
ALTER TABLE "delivery" RENAME CONSTRAINT "webhook_event_request_id_fkey" TO "delivery_request_id_fkey";
ALTER TABLE "delivery" RENAME CONSTRAINT "webhook_event_transaction_id_fkey" TO "delivery_transaction_id_fkey";
ALTER TABLE "delivery" RENAME CONSTRAINT "webhook_event_endpoint_id_fkey" TO "delivery_endpoint_id_fkey";
ALTER TABLE "delivery" RENAME CONSTRAINT "webhook_event_event_id_fkey" TO "delivery_event_id_fkey";
ALTER INDEX "webhook_event_transaction_id_key" RENAME TO "delivery_transaction_id_key";
ALTER INDEX "webhook_event_state_next_attempt_at_idx" RENAME TO "delivery_state_next_attempt_at_idx";
ALTER INDEX "webhook_event_merchant_id_created_at_idx" RENAME TO "delivery_merchant_id_created_at_idx";
ALTER INDEX "webhook_event_endpoint_id_created_at_id_idx" RENAME TO "delivery_endpoint_id_created_at_id_idx";
ALTER INDEX "webhook_event_event_id_idx" RENAME TO "delivery_event_id_idx";

-- The partial indexes of the migrations' own SQL (retention's, and the claim's), named after the table too.
ALTER INDEX "webhook_event_finished_updated_at_idx" RENAME TO "delivery_finished_updated_at_idx";
ALTER INDEX "webhook_event_waiting_idx" RENAME TO "delivery_waiting_idx";
ALTER INDEX "webhook_event_in_flight_idx" RENAME TO "delivery_in_flight_idx";
ALTER INDEX "webhook_event_waiting_ping_idx" RENAME TO "delivery_waiting_ping_idx";

-- An attempt's delivery: event_id named the webhook event, and now says delivery (its foreign key and index follow).
ALTER TABLE "webhook_attempt" RENAME COLUMN "event_id" TO "delivery_id";
ALTER TABLE "webhook_attempt" RENAME CONSTRAINT "webhook_attempt_event_id_fkey" TO "webhook_attempt_delivery_id_fkey";
ALTER INDEX "webhook_attempt_event_id_number_idx" RENAME TO "webhook_attempt_delivery_id_number_idx";
