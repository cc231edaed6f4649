-- 011_notify_quiet_games.sql - no outbox fact for a move nobody can be told
-- of: a version fact (sql/006_notifications.sql) is written only when some
-- player seated in the game has a channel, a webhook or a verified address,
-- at the commit of the move. The notifier (server/notify.c) asks the same
-- question again when it claims facts (email counting only while email is
-- on), so whatever this lets through is still dropped there; what it keeps
-- out the notifier would have dropped unread, as told state (notify_told)
-- is only written for games with a listener. A player who adds a webhook or
-- verifies an address mid-game is told at the next version, as before.
-- 'started' facts stay unconditional (the seats may be written after the
-- games row); 'replaced' and 'message' facts are unchanged.

-- Whether any player seated in game g has a webhook, or (email) a verified
-- address. PL/pgSQL so that each connection plans the query once (a SQL
-- function with a subquery is not inlined and would be planned at each
-- call from the trigger).
CREATE FUNCTION notify_game_listened(g text, email boolean) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN EXISTS (
        SELECT 1 FROM game_seats gs
         WHERE gs.game_id = g AND gs.player_id IS NOT NULL
           AND (EXISTS (SELECT 1 FROM notify_webhooks w
                         WHERE w.player_id = gs.player_id)
                OR (email AND EXISTS (SELECT 1 FROM notify_settings s
                                       WHERE s.player_id = gs.player_id
                                         AND s.email_verified))));
END $$;

CREATE OR REPLACE FUNCTION notify_fact_game() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' OR notify_game_listened(NEW.game_id, true) THEN
        INSERT INTO notify_facts (game_id, kind, version)
        VALUES (NEW.game_id,
                CASE WHEN TG_OP = 'INSERT' THEN 'started' ELSE 'version' END,
                NEW.version);
    END IF;
    RETURN NULL;
END $$;
