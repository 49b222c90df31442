-- AlterTable
ALTER TABLE "webhook_event" ADD COLUMN     "correlation_id" TEXT;

