-- Where a signing key's private half is kept: 'setting' (a worker's WEBHOOK_SIGNING_KEY) or
-- 'directory' (a file in WEBHOOK_SIGNING_KEY_DIR, made by `signing-key rotate` or generated in
-- development). A worker refuses to start when it could not sign with the current key (worker/signing.ts).
-- Keys published before this column: unknown (NULL).
ALTER TABLE "signing_key" ADD COLUMN "source" TEXT;
