-- 014_coming_back.sql - coming back to a game from a mail:
--   * signin_links: one-time sign-in links mailed to a verified address
--     (server/players/signin_links.c); only the SHA-256 of the mailed token
--     is kept, used once, for a short time;
--   * notify_settings.unsubscribe_token: the secret of a player's
--     unsubscribe link (the mails' List-Unsubscribe, RFC 8058), made the
--     first time a mail needs it (server/notify/notify_settings.c).
CREATE TABLE signin_links (
    hash       bytea PRIMARY KEY,  -- SHA-256 of the mailed token
    player_id  text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    next_path  text NOT NULL DEFAULT '/' CHECK (length(next_path) <= 200),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX signin_links_player ON signin_links (player_id, created_at);

ALTER TABLE notify_settings ADD COLUMN unsubscribe_token text UNIQUE
    CHECK (unsubscribe_token IS NULL OR length(unsubscribe_token) = 48);
