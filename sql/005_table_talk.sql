-- Table talk (server/chat.c): every game's public channel (channel_id 0,
-- seats 0) and private channels between sets of its seats, their messages
-- and each member seat's read mark. Every key leads with game_id, so the
-- tables can be distributed by game with the rest.

CREATE TABLE chat_channels (
    game_id    text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    channel_id integer NOT NULL CHECK (channel_id >= 0),
    seats      integer NOT NULL CHECK (seats >= 0), -- member seats, bit per seat
    created_by integer,                             -- seat; NULL for public
    last_seq   bigint NOT NULL DEFAULT 0,           -- the newest message's seq
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, channel_id),
    UNIQUE (game_id, seats),
    CHECK ((channel_id = 0) = (seats = 0))
);

-- seq starts at 1 and is gapless per channel (chat_channels.last_seq).
CREATE TABLE chat_messages (
    game_id      text NOT NULL,
    channel_id   integer NOT NULL,
    seq          bigint NOT NULL CHECK (seq >= 1),
    seat         integer NOT NULL,
    player_id    text NOT NULL,
    body         text NOT NULL,
    game_version bigint NOT NULL, -- the game's version when posted
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, channel_id, seq),
    FOREIGN KEY (game_id, channel_id)
        REFERENCES chat_channels (game_id, channel_id) ON DELETE CASCADE
);
-- The rate limit counts one seat's recent messages in a game.
CREATE INDEX chat_messages_rate ON chat_messages (game_id, seat, created_at);

CREATE TABLE chat_reads (
    game_id    text NOT NULL,
    channel_id integer NOT NULL,
    seat       integer NOT NULL,
    last_read  bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, channel_id, seat),
    FOREIGN KEY (game_id, channel_id)
        REFERENCES chat_channels (game_id, channel_id) ON DELETE CASCADE
);
