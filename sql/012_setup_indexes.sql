-- 012_setup_indexes.sql - indexes for the reads of a game's setup (create a
-- lobby, join it, start it), so that their cost follows what they answer
-- rather than the size of the tables:
--   * a player's reputation (server/reputation.h) reads every window of the
--     player: the index now carries the columns it reads (an index-only scan
--     instead of a heap page per window); nothing read the windows of a
--     player in closed_at order;
--   * the open-lobbies quota counts a host's open lobbies (it read every
--     open lobby's row).
DROP INDEX seat_windows_player;
CREATE INDEX seat_windows_player ON seat_windows (player_id)
    INCLUDE (opened_at, closed_at, missed);
CREATE INDEX lobbies_open_host ON lobbies (host_id) WHERE status = 'open';
