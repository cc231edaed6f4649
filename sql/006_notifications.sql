-- 006_notifications.sql - notifications: each player's settings (email,
-- webhooks, quiet hours, digest, reminder interval), the outbox of facts
-- written by triggers in the same transaction as the change that causes
-- them, what each seat has been told, and the per-recipient deliveries the
-- notifier workers send (server/notify*.c).

CREATE TABLE notify_settings (
    player_id        text PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    email            text CHECK (email IS NULL OR length(email) <= 254),
    email_verified   boolean NOT NULL DEFAULT false,
    verify_hash      bytea,          -- SHA-256 of the mailed token
    verify_expires   timestamptz,
    quiet_start      integer CHECK (quiet_start BETWEEN 0 AND 1439),
    quiet_end        integer CHECK (quiet_end BETWEEN 0 AND 1439),
    utc_offset       integer NOT NULL DEFAULT 0
                     CHECK (utc_offset BETWEEN -840 AND 840), -- minutes
    digest           boolean NOT NULL DEFAULT false,
    digest_hour      integer NOT NULL DEFAULT 8
                     CHECK (digest_hour BETWEEN 0 AND 23), -- local hour
    last_digest_at   timestamptz,
    reminder_seconds integer NOT NULL DEFAULT 7200
                     CHECK (reminder_seconds BETWEEN 4 AND 604800),
    updated_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE notify_webhooks (
    id         text PRIMARY KEY,
    player_id  text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    url        text NOT NULL CHECK (length(url) <= 2048),
    secret     text NOT NULL,          -- shown once, kept to sign deliveries
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notify_webhooks_player ON notify_webhooks (player_id);

-- The outbox of facts: "game G reached version V" (kind version; started
-- for the insert of the game), "a seat was handed to a bot" (replaced).
-- Written by the triggers below in the transaction of the change itself;
-- a notifier claims rows (FOR UPDATE SKIP LOCKED), turns them into
-- deliveries and deletes them in one transaction. Other modules may insert
-- kind 'message' (detail {"seat": recipient}) in their own transaction.
CREATE TABLE notify_facts (
    game_id    text NOT NULL,
    id         bigserial,
    kind       text NOT NULL
               CHECK (kind IN ('started', 'version', 'replaced', 'message')),
    version    bigint NOT NULL,
    detail     jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, id)
);
CREATE INDEX notify_facts_order ON notify_facts (id);

CREATE FUNCTION notify_fact_game() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO notify_facts (game_id, kind, version)
    VALUES (NEW.game_id,
            CASE WHEN TG_OP = 'INSERT' THEN 'started' ELSE 'version' END,
            NEW.version);
    RETURN NULL;
END $$;

CREATE TRIGGER games_notify_insert AFTER INSERT ON games
    FOR EACH ROW EXECUTE FUNCTION notify_fact_game();
CREATE TRIGGER games_notify_version AFTER UPDATE OF version ON games
    FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version)
    EXECUTE FUNCTION notify_fact_game();

CREATE FUNCTION notify_fact_replaced() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO notify_facts (game_id, kind, version, detail)
    SELECT NEW.game_id, 'replaced', g.version,
           jsonb_build_object('seat', NEW.seat, 'bot', NEW.bot)
      FROM games g WHERE g.game_id = NEW.game_id;
    RETURN NULL;
END $$;

CREATE TRIGGER game_seats_notify_replaced AFTER UPDATE OF bot ON game_seats
    FOR EACH ROW WHEN (OLD.bot IS NULL AND NEW.bot IS NOT NULL)
    EXECUTE FUNCTION notify_fact_replaced();

-- What a seat has been told of a window: 'waiting', 'reminder1@DUE',
-- 'reminder2@DUE' (DUE: the deadline's Unix time). Rows of a window go when
-- it stops waiting on the seat, so one window is announced once.
CREATE TABLE notify_told (
    game_id   text NOT NULL,
    seat      integer NOT NULL,
    window_id text NOT NULL,
    what      text NOT NULL,
    PRIMARY KEY (game_id, seat, window_id, what)
);

-- One row per notification per channel and target. notification_id is the
-- idempotency id (GAME:VERSION:SEAT:KIND), the same on every retry.
CREATE TABLE notify_deliveries (
    game_id         text NOT NULL,        -- '' for a digest
    notification_id text NOT NULL,
    channel         text NOT NULL CHECK (channel IN ('email', 'webhook')),
    target          text NOT NULL,        -- the address, or the webhook id
    player_id       text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    kind            text NOT NULL,
    subject         text NOT NULL DEFAULT '',
    body            text NOT NULL,
    status          text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'sent', 'dead', 'held',
                                      'digested', 'dropped')),
    attempts        integer NOT NULL DEFAULT 0,
    next_at         timestamptz NOT NULL DEFAULT now(),
    last_error      text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    sent_at         timestamptz,
    PRIMARY KEY (game_id, notification_id, channel, target)
);
CREATE INDEX notify_deliveries_due ON notify_deliveries (next_at)
    WHERE status = 'pending';
CREATE INDEX notify_deliveries_held ON notify_deliveries (player_id)
    WHERE status = 'held';
