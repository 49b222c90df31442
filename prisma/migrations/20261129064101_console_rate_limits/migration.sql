-- A console session may spend what the key that linked it may: the limit travels from the link to the
-- session, and to the keys the session makes.

-- AlterTable
ALTER TABLE "console_link" ADD COLUMN     "rate_limit_per_minute" INTEGER;

-- AlterTable
ALTER TABLE "console_session" ADD COLUMN     "rate_limit_per_minute" INTEGER;

