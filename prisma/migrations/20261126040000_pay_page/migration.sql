-- The hosted pay page: a short code a person can read aloud and type, the page a paid request links
-- back to, and the addresses each merchant allows that link to start with.
-- (Prisma runs a migration statement by statement, split at every semicolon: no DO blocks, and none
-- in comments either.)
ALTER TABLE "merchant" ADD COLUMN "allowed_redirect_urls" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "payment_request" ADD COLUMN "redirect_url" TEXT;
ALTER TABLE "payment_request" ADD COLUMN "short_code" TEXT;

-- Requests made before this migration get a random code each: PR-XXX-XXX of the alphabet the
-- service draws from, which has no look-alike characters. A code drawn twice is drawn again (twice
-- over, so a clash is left only with odds far below one in a million million), and the unique index
-- below would refuse the migration rather than keep a clash.
UPDATE "payment_request" SET "short_code" = 'PR-' || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1) || '-' || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1);
UPDATE "payment_request" SET "short_code" = 'PR-' || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1) || '-' || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1)
WHERE "id" IN (SELECT "id" FROM (SELECT "id", row_number() OVER (PARTITION BY "short_code" ORDER BY "id") AS "nth" FROM "payment_request") AS "drawn" WHERE "nth" > 1);
UPDATE "payment_request" SET "short_code" = 'PR-' || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1) || '-' || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::INT, 1)
WHERE "id" IN (SELECT "id" FROM (SELECT "id", row_number() OVER (PARTITION BY "short_code" ORDER BY "id") AS "nth" FROM "payment_request") AS "drawn" WHERE "nth" > 1);

ALTER TABLE "payment_request" ALTER COLUMN "short_code" SET NOT NULL;
CREATE UNIQUE INDEX "payment_request_short_code_key" ON "payment_request"("short_code");
