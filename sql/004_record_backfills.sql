-- Which rulesets' per-player records have been rebuilt from the games that
-- finished before records were stored (server/records.c, records_backfill):
-- one row per ruleset, written in the transaction that folds those games,
-- so the rebuild happens exactly once whatever the number of processes.
CREATE TABLE record_backfills (
    ruleset text PRIMARY KEY,
    done_at timestamptz NOT NULL DEFAULT now()
);
