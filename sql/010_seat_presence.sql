-- 010_seat_presence.sql - which seats have their game open on the page, per
-- process (server/seat_presence.c): each process's listener writes the
-- seats with a live WebSocket subscription on it every 2 s, valid for a few
-- seconds more, so a notifier on another process does not tell a player
-- who is watching the game elsewhere. A game table keyed by game_id
-- (docs/scaling.md); rows of a process that died expire on their own.
CREATE TABLE seat_presence (
    game_id text NOT NULL,
    seat    integer NOT NULL,
    process text NOT NULL,
    until   timestamptz NOT NULL,
    PRIMARY KEY (game_id, seat, process)
);
