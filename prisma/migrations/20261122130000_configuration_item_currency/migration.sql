-- A configuration item names the currency it accepts. Items at a ledger with a currency take that
-- one, items at test.uplink (no currency of its own) take the currency of their merchant, which
-- the sandbox configuration wrote as the units label of the item.
ALTER TABLE "configuration_item" ADD COLUMN "currency" TEXT;
UPDATE "configuration_item" i SET "currency" = COALESCE(l."currency", i."units_label")
FROM "ledger" l WHERE l."id" = i."ledger_id";
ALTER TABLE "configuration_item" ALTER COLUMN "currency" SET NOT NULL;
