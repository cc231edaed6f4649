-- 013_notify_delivery.sql - what the notifier's sender needs to keep
-- deliveries from stalling or overtaking each other (server/notify/
-- notify_deliver.c):
--   * seq: the order deliveries were written in; a delivery does not go
--     while an older pending one of the same game goes to the same
--     destination ("started" before "waiting"), so retries cannot swap them;
--   * the circuit breaker of each webhook: consecutive failures, since when,
--     the last error, and until when it is paused (retry_at) after
--     NOTIFY_BREAKER_FAILURES failures in a row; shown to its owner in the
--     notification settings.
ALTER TABLE notify_deliveries ADD COLUMN seq bigserial;
CREATE INDEX notify_deliveries_order
    ON notify_deliveries (channel, target, game_id, seq)
    WHERE status = 'pending';

ALTER TABLE notify_webhooks
    ADD COLUMN failures      integer NOT NULL DEFAULT 0,
    ADD COLUMN failing_since timestamptz,
    ADD COLUMN retry_at      timestamptz,
    ADD COLUMN last_error    text;
