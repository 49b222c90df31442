-- A merchant's takings in 15-minute bins of UTC and its payments' seconds to pay per UTC day, which the
-- worker rolls up from its requests and transactions, and how far it has: statistics read these, not
-- every row (src/domain/stats).

-- CreateTable
CREATE TABLE "takings_bin" (
    "merchant_id" UUID NOT NULL,
    "start" TIMESTAMP(3) NOT NULL,
    "asset" TEXT NOT NULL,
    "created" INTEGER NOT NULL,
    "paid" INTEGER NOT NULL,
    "paid_amount" BIGINT NOT NULL,
    "refunded_amount" BIGINT NOT NULL,
    "seconds_to_pay" INTEGER[],

    CONSTRAINT "takings_bin_pkey" PRIMARY KEY ("merchant_id","start","asset")
);

-- CreateTable
CREATE TABLE "takings_day" (
    "merchant_id" UUID NOT NULL,
    "day" TIMESTAMP(3) NOT NULL,
    "seconds" INTEGER[],
    "counts" INTEGER[],

    CONSTRAINT "takings_day_pkey" PRIMARY KEY ("merchant_id","day")
);

-- CreateTable
CREATE TABLE "takings_rollup" (
    "merchant_id" UUID NOT NULL,
    "through" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "takings_rollup_pkey" PRIMARY KEY ("merchant_id")
);

-- AddForeignKey
ALTER TABLE "takings_bin" ADD CONSTRAINT "takings_bin_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "takings_day" ADD CONSTRAINT "takings_day_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "takings_rollup" ADD CONSTRAINT "takings_rollup_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

