-- The merchant console's sign-in links (single use, 15 minutes) and its sessions (12 hours idle, 7 days
-- at most). Tokens and cookie secrets are stored only as SHA-256 hashes.

-- CreateTable
CREATE TABLE "console_link" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "label" TEXT,
    "read_only" BOOLEAN NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),

    CONSTRAINT "console_link_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "console_session" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "label" TEXT,
    "read_only" BOOLEAN NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "last_seen_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "ended_at" TIMESTAMP(3),

    CONSTRAINT "console_session_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "console_link_token_hash_key" ON "console_link"("token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "console_session_secret_hash_key" ON "console_session"("secret_hash");

-- CreateIndex
CREATE INDEX "console_session_merchant_id_created_at_idx" ON "console_session"("merchant_id", "created_at");

-- AddForeignKey
ALTER TABLE "console_link" ADD CONSTRAINT "console_link_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "console_session" ADD CONSTRAINT "console_session_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

