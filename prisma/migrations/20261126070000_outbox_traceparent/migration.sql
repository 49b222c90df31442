-- The W3C traceparent of the API call that wrote an outbox row, when that call was traced: the
-- worker's delivery traces link to it.
ALTER TABLE "webhook_event" ADD COLUMN "traceparent" TEXT;
