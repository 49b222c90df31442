-- The audit trail's order: changes made within one millisecond share created_at, and the order
-- they were written in is kept by this sequence (the random id used to break such ties).
ALTER TABLE "activity" ADD COLUMN "seq" BIGSERIAL NOT NULL;
