-- AlterTable
ALTER TABLE "api_key" ADD COLUMN     "rate_limit_per_minute" INTEGER;

