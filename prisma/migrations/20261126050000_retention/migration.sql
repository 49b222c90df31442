-- The retention sweeps (src/domain/retention/sweeps.ts) find what is due by these, a batch at a time,
-- rather than by scanning the tables: finished webhook events by when they last changed, and
-- activity by age (swept only when ACTIVITY_RETENTION is set).
CREATE INDEX "webhook_event_finished_updated_at_idx" ON "webhook_event"("updated_at") WHERE "state" <> 'PENDING';
CREATE INDEX "activity_created_at_idx" ON "activity"("created_at");

-- The audit trail stays append-only: a delete is discarded unless the transaction says it is the
-- retention sweep (SET LOCAL payreq.retention = 'on'), which deletes only what is older than
-- ACTIVITY_RETENTION, and only when an operator set it.
DROP RULE "activity_no_delete" ON "activity";
CREATE RULE "activity_no_delete" AS ON DELETE TO "activity"
  WHERE current_setting('payreq.retention', true) IS DISTINCT FROM 'on' DO INSTEAD NOTHING;
