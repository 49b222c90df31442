-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "ConnectorKind" AS ENUM ('TEST_UPLINK', 'SANDBOX_WALLET');

-- CreateEnum
CREATE TYPE "PaymentMethod" AS ENUM ('QR_CODE', 'NFC', 'AUTH_ALPHANUMERIC', 'AUTH_NUMERIC');

-- CreateEnum
CREATE TYPE "ApiKeyKind" AS ENUM ('MERCHANT', 'PAYER');

-- CreateEnum
CREATE TYPE "RequestStatus" AS ENUM ('NEW', 'PAID', 'CANCELLED', 'EXPIRED');

-- CreateEnum
CREATE TYPE "TransactionType" AS ENUM ('PURCHASE', 'REFUND');

-- CreateEnum
CREATE TYPE "TransactionState" AS ENUM ('COMPLETED');

-- CreateEnum
CREATE TYPE "WebhookEventState" AS ENUM ('PENDING', 'DELIVERED', 'EXHAUSTED');

-- CreateTable
CREATE TABLE "ledger" (
    "id" TEXT NOT NULL,
    "currency" TEXT,
    "connector" "ConnectorKind" NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "merchant" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "merchant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "client" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "name" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "client_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "configuration_item" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "client_id" UUID,
    "index" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    "ledger_id" TEXT NOT NULL,
    "account" TEXT,
    "methods" "PaymentMethod"[],
    "icon_image" TEXT,
    "icon_mime_type" TEXT,
    "units_label" TEXT NOT NULL,
    "units_factor" INTEGER NOT NULL,
    "fractional_digits" INTEGER NOT NULL,
    "precision" INTEGER NOT NULL,

    CONSTRAINT "configuration_item_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_key" (
    "id" UUID NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "kind" "ApiKeyKind" NOT NULL,
    "merchant_id" UUID,
    "label" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),
    "last_used_at" TIMESTAMP(3),

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_request" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "client_id" UUID,
    "external_reference" TEXT,
    "asset" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "request_code" TEXT NOT NULL,
    "description" TEXT,
    "status" "RequestStatus" NOT NULL DEFAULT 'NEW',
    "payment_expiry_seconds" INTEGER NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "notify_url" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "payment_request_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_option" (
    "id" UUID NOT NULL,
    "request_id" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "ledger_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "account" TEXT,
    "methods" "PaymentMethod"[],

    CONSTRAINT "payment_option_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transaction" (
    "id" UUID NOT NULL,
    "type" "TransactionType" NOT NULL,
    "state" "TransactionState" NOT NULL DEFAULT 'COMPLETED',
    "request_id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "ledger_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "account" TEXT NOT NULL DEFAULT '',
    "auth_code" TEXT NOT NULL,
    "response_code" TEXT NOT NULL,
    "payment_type" TEXT NOT NULL,
    "receipt" TEXT,
    "settlement_date" TIMESTAMP(3) NOT NULL,
    "payer_reference" TEXT,
    "purchase_id" UUID,
    "external_reference" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "transaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_event" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "request_id" UUID NOT NULL,
    "transaction_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "state" "WebhookEventState" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_wallet" (
    "id" UUID NOT NULL,
    "currency" TEXT NOT NULL,
    "balance" BIGINT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sandbox_wallet_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "client_merchant_id_idx" ON "client"("merchant_id");

-- CreateIndex
CREATE INDEX "configuration_item_merchant_id_client_id_index_idx" ON "configuration_item"("merchant_id", "client_id", "index");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_prefix_key" ON "api_key"("prefix");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_hash_key" ON "api_key"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "payment_request_request_code_key" ON "payment_request"("request_code");

-- CreateIndex
CREATE INDEX "payment_request_merchant_id_created_at_idx" ON "payment_request"("merchant_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "payment_request_merchant_id_external_reference_key" ON "payment_request"("merchant_id", "external_reference");

-- CreateIndex
CREATE UNIQUE INDEX "payment_option_request_id_index_key" ON "payment_option"("request_id", "index");

-- CreateIndex
CREATE INDEX "transaction_request_id_idx" ON "transaction"("request_id");

-- CreateIndex
CREATE INDEX "transaction_merchant_id_created_at_idx" ON "transaction"("merchant_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "transaction_purchase_id_external_reference_key" ON "transaction"("purchase_id", "external_reference");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_event_transaction_id_key" ON "webhook_event"("transaction_id");

-- CreateIndex
CREATE INDEX "webhook_event_state_next_attempt_at_idx" ON "webhook_event"("state", "next_attempt_at");

-- AddForeignKey
ALTER TABLE "client" ADD CONSTRAINT "client_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "configuration_item" ADD CONSTRAINT "configuration_item_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "configuration_item" ADD CONSTRAINT "configuration_item_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "client"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "configuration_item" ADD CONSTRAINT "configuration_item_ledger_id_fkey" FOREIGN KEY ("ledger_id") REFERENCES "ledger"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_request" ADD CONSTRAINT "payment_request_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_request" ADD CONSTRAINT "payment_request_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "client"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_option" ADD CONSTRAINT "payment_option_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "payment_request"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_option" ADD CONSTRAINT "payment_option_ledger_id_fkey" FOREIGN KEY ("ledger_id") REFERENCES "ledger"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transaction" ADD CONSTRAINT "transaction_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "payment_request"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transaction" ADD CONSTRAINT "transaction_ledger_id_fkey" FOREIGN KEY ("ledger_id") REFERENCES "ledger"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transaction" ADD CONSTRAINT "transaction_purchase_id_fkey" FOREIGN KEY ("purchase_id") REFERENCES "transaction"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_event" ADD CONSTRAINT "webhook_event_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "payment_request"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_event" ADD CONSTRAINT "webhook_event_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "transaction"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Invariants Prisma's schema language cannot express.

-- Money is positive and wallets never go negative.
ALTER TABLE "payment_request" ADD CONSTRAINT "payment_request_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "payment_option" ADD CONSTRAINT "payment_option_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "transaction" ADD CONSTRAINT "transaction_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "sandbox_wallet" ADD CONSTRAINT "sandbox_wallet_balance_not_negative" CHECK ("balance" >= 0);

-- A refund belongs to a purchase, and a purchase belongs to no other transaction.
ALTER TABLE "transaction" ADD CONSTRAINT "transaction_refund_has_purchase"
  CHECK (("type" = 'REFUND') = ("purchase_id" IS NOT NULL));

-- At most one purchase per request, and at most one refund without a reference per purchase.
CREATE UNIQUE INDEX "transaction_one_purchase_per_request" ON "transaction"("request_id") WHERE "type" = 'PURCHASE';
CREATE UNIQUE INDEX "transaction_one_unreferenced_refund" ON "transaction"("purchase_id")
  WHERE "type" = 'REFUND' AND "external_reference" IS NULL;

-- The expiry sweep looks only at open requests.
CREATE INDEX "payment_request_open_expiry" ON "payment_request"("expires_at") WHERE "status" = 'NEW';

-- The built-in test ledger: approves any non-empty authorization, in any currency.
INSERT INTO "ledger" ("id", "currency", "connector") VALUES ('test.uplink', NULL, 'TEST_UPLINK');
