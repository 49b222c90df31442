-- How a merchant's pay pages look: a display name, an accent colour and a logo (its bytes, checked type
-- and hash), one row per merchant that set any.

-- CreateTable
CREATE TABLE "merchant_branding" (
    "merchant_id" UUID NOT NULL,
    "display_name" TEXT,
    "accent_color" TEXT,
    "logo" BYTEA,
    "logo_type" TEXT,
    "logo_hash" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "merchant_branding_pkey" PRIMARY KEY ("merchant_id")
);

-- AddForeignKey
ALTER TABLE "merchant_branding" ADD CONSTRAINT "merchant_branding_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

