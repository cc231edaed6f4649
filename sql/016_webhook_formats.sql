-- 016_webhook_formats.sql - webhooks that speak the chat platforms'
-- incoming-webhook formats, and group channels (server/notify/):
--   * format: the body a webhook is sent ('conclave', the notifier's JSON;
--     'discord'; 'slack': server/notify/notify_format.h);
--   * game_id: set for a game's group channel, a webhook one player (seated
--     in the game, or its host) attached to the game, which is told only
--     what the public audience may see (whose move it is, the game started
--     or ended). At most one per game. Its player_id is who attached it; it
--     is not one of that player's own webhooks (those have game_id NULL)
--     and does not count against their cap.
ALTER TABLE notify_webhooks
    ADD COLUMN format text NOT NULL DEFAULT 'conclave'
        CHECK (format IN ('conclave', 'discord', 'slack')),
    ADD COLUMN game_id text;
CREATE UNIQUE INDEX notify_webhooks_game ON notify_webhooks (game_id)
    WHERE game_id IS NOT NULL;

-- A game is listened to when one of its seated players has a channel of
-- their own, or when it has a group channel.
CREATE OR REPLACE FUNCTION notify_game_listened(g text, email boolean)
RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN EXISTS (SELECT 1 FROM notify_webhooks c WHERE c.game_id = g)
        OR EXISTS (
        SELECT 1 FROM game_seats gs
         WHERE gs.game_id = g AND gs.player_id IS NOT NULL
           AND (EXISTS (SELECT 1 FROM notify_webhooks w
                         WHERE w.player_id = gs.player_id
                           AND w.game_id IS NULL)
                OR (email AND EXISTS (SELECT 1 FROM notify_settings s
                                       WHERE s.player_id = gs.player_id
                                         AND s.email_verified))));
END $$;
