-- An attempt is recorded before its POST (IN_FLIGHT, no duration yet) and completed after it, so
-- a worker killed mid-delivery still leaves the attempt on record.
ALTER TYPE "WebhookAttemptOutcome" ADD VALUE 'IN_FLIGHT' BEFORE 'DELIVERED';
ALTER TABLE "webhook_attempt" ALTER COLUMN "duration_ms" DROP NOT NULL;
