/*
 * engine.h - the public contract of the Conclave game engine.
 *
 * A game is a deterministic function of (ruleset, options, seat count, seed,
 * inputs). The engine does no I/O, starts no threads, reads no clock and keeps
 * no globals; it depends only on libc, jansson and libcrypto. Everything the
 * server, the tools and the tests know about games goes through this header.
 *
 * Ownership follows jansson's words: a function that returns json_t * returns
 * a NEW reference (the caller decrefs it) unless it says "borrowed"; json_t *
 * arguments are borrowed unless they say "steals".
 *
 * Errors: functions return 0 on success and a negative ENGINE_E* code on
 * failure, filling an engine_error with a reason written for the player
 * ("cost 4 needs 4 discards, got 3"). A failed engine_apply leaves the game
 * byte-for-byte unchanged (same engine_hash).
 *
 * What it does not do: it does not know about HTTP, Postgres, clocks or
 * players' identities; seats are small integers 0..seats-1.
 */
#ifndef CONCLAVE_ENGINE_H
#define CONCLAVE_ENGINE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define ENGINE_MAX_SEATS 8
#define ENGINE_WINDOW_ID_MAX 48 /* including the terminating NUL */
#define ENGINE_NONCE_BYTES 16
#define ENGINE_HASH_BYTES 32
#define ENGINE_SEED_BYTES 32
#define ENGINE_PUBLIC (-1) /* the audience of spectators */
/* The largest sealed order of a ruleset that declares no max_order_bytes. */
#define ENGINE_ORDER_BYTES_DEFAULT (64 * 1024)
/* The reserved member of an order in a ready_part window (engine_window). */
#define ENGINE_READY_PART "ready"
/* Audience masks (engine_touched): bit s for seat s, this bit for the
 * spectators' public view. */
#define ENGINE_AUDIENCE_PUBLIC (UINT32_C(1) << 31)
#define ENGINE_AUDIENCE_ALL UINT32_C(0xffffffff)

/* Error codes. The comment gives the HTTP status the API maps each to. */
enum {
    ENGINE_OK = 0,
    ENGINE_EINVALID = -1,   /* 422: malformed or illegal order/play/options */
    ENGINE_ECONFLICT = -2,  /* 409: window not open, locked, or not your turn */
    ENGINE_EFORBIDDEN = -3, /* 403: the seat does not act in that window */
    ENGINE_ENOTFOUND = -4,  /* 404: unknown ruleset */
    ENGINE_EOVER = -5,      /* 409: the game is over */
    ENGINE_EINTERNAL = -6   /* 500: corrupt saved state, out of memory */
};

typedef struct engine_error {
    int code;       /* one of ENGINE_E*, 0 when no error */
    char field[64]; /* the payload field at fault, "" when none */
    char msg[256];  /* human-readable reason, safe to show to the actor */
} engine_error;

/* Fill err (may be NULL) and return code. printf-style. The message and
 * the field are made valid UTF-8 (engine_utf8_clean), since they may quote
 * input cut in the middle of a character. */
int engine_fail(engine_error *err, int code, const char *field, const char *fmt,
                ...) __attribute__((format(printf, 4, 5)));

/* Replace, in place, every byte of the NUL-terminated s that is not part of
 * a valid UTF-8 sequence (truncated, overlong, a surrogate, above U+10FFFF)
 * with '?'. Text that quotes input through printf's "%.40s" can end inside
 * a character, and JSON encoders refuse such strings. Cannot fail. */
void engine_utf8_clean(char *s);

/* ------------------------------------------------------------------ RNG --
 * A ChaCha20 keystream (RFC 8439, libcrypto) keyed by a 32-byte key, with a
 * 64-bit stream id for domain separation: the nonce is 4 zero bytes then the
 * stream id as 8 little-endian bytes, the block counter starts at 0, and
 * bytes come out in keystream order (generated 256 at a time, lazily).
 * Plain data: it can be copied (the copy continues identically), saved and
 * restored. Observing outputs does not reveal the key. A game's RNG is keyed
 * by its seed.
 */
typedef struct engine_rng {
    uint8_t key[32];
    uint64_t stream;
    uint32_t counter;  /* next 64-byte block to generate */
    uint8_t buf[256];  /* generated, not yet consumed keystream */
    uint16_t pos, len; /* consumed/filled bytes of buf */
} engine_rng;

/* Cannot fail. */
void engine_rng_init(engine_rng *rng, const uint8_t key[32], uint64_t stream);
void engine_rng_bytes(engine_rng *rng, void *out, size_t n);
uint32_t engine_rng_u32(engine_rng *rng);
/* Uniform integer in [0, bound) by rejection sampling; bound >= 1 (0 and 1
 * return 0 without drawing). */
uint32_t engine_rng_below(engine_rng *rng, uint32_t bound);
/* Fisher-Yates shuffle of n elements of size bytes each (size <= 64). */
void engine_rng_shuffle(engine_rng *rng, void *base, size_t n, size_t size);
/* Save as {"stream":N,"counter":N,"pos":N} plus the key in hex (private!). */
json_t *engine_rng_save(const engine_rng *rng);
int engine_rng_load(engine_rng *rng, const json_t *saved, engine_error *err);

/* Raw RFC 8439 block function, exposed for the test vectors: writes 64*nblocks
 * bytes of keystream for (key, 12-byte nonce, initial counter). */
void engine_chacha20_blocks(const uint8_t key[32], const uint8_t nonce[12],
                            uint32_t counter, uint8_t *out, size_t nblocks);

/* ------------------------------------------------------------- hashing -- */
/* SHA-256 of data. Cannot fail. */
void engine_sha256(const void *data, size_t n, uint8_t out[ENGINE_HASH_BYTES]);
/* Lower-case hex of n bytes into out (2n+1 bytes). */
void engine_hex(const uint8_t *bytes, size_t n, char *out);
/* Parse exactly 2n hex digits (either case) into out. Returns 0, or -1 when
 * hex is NULL, has another length or a non-hex character (out is then
 * partly written). */
int engine_unhex(const char *hex, uint8_t *out, size_t n);
/* Canonical JSON text: compact, keys sorted, UTF-8, integers only as written
 * by jansson. Returns malloc'd text; NULL only when out of memory. */
char *engine_canonical_json(const json_t *value);

/* ------------------------------------------------------------- windows --
 * A window is a decision point the game waits on. sealed: each seat in it
 * submits one secret order, replaceable until the window locks (everyone has
 * submitted, or a timeout input arrives), then all are resolved together.
 * open: plays are taken one at a time.
 */
typedef enum { ENGINE_SEALED = 0, ENGINE_OPEN = 1 } engine_window_mode;

typedef struct engine_window {
    char id[ENGINE_WINDOW_ID_MAX]; /* unique within the game's lifetime */
    engine_window_mode mode;
    uint32_t seats;     /* bitmask of seats that must/may act */
    uint32_t submitted; /* sealed: seats whose order is held; open: 0 */
    int parts;      /* sealed: 1 when the order may be built in keyed parts, the
                       order's top-level members (the ruleset's windows sets it;
                       the core clears it for open windows) */
    int ready_part; /* parts window: an order counts toward the lock only
                       once it holds the reserved part "ready": true (the
                       ruleset sets it; the core strips "ready" before the
                       ruleset sees an order); the deadline locks it with
                       every held order, ready or not */
    uint32_t ready; /* ready_part: seats whose held order is ready */
} engine_window;

/* -------------------------------------------------------------- inputs -- */
typedef enum {
    ENGINE_ORDER = 0,   /* a sealed order for a window */
    ENGINE_PLAY = 1,    /* a public play in an open window */
    ENGINE_TIMEOUT = 2, /* the clock ran out for the window's missing seats */
    ENGINE_SYSTEM = 3,  /* engine-level: {"action":"withdraw"} for a seat's
                           sealed order, {"action":"abort"} ends the game;
                           the priority actions "respond", "undo",
                           "undo_consent", "undo_refuse" (see engine_apply) */
} engine_input_kind;

typedef struct engine_input {
    int seat; /* acting seat; ENGINE_PUBLIC for timeout/abort */
    engine_input_kind kind;
    const char *window;    /* window id; may be NULL for abort */
    const json_t *payload; /* borrowed; the order, the play, or NULL.
                              A play may also carry "window" (as the API
                              body does); it must then equal window and
                              the ruleset never sees it. */
    uint8_t nonce[ENGINE_NONCE_BYTES];     /* orders only: from the caller's
                                              per-order nonce source (OS random) */
    char window_buf[ENGINE_WINDOW_ID_MAX]; /* storage engine_bot_action
                                              points window at */
} engine_input;

/* What an accepted sealed order returns: hex SHA-256 over
 * (game id, window, seat, canonical order JSON, nonce), each part
 * length-prefixed; see engine_receipt_compute. */
typedef struct engine_receipt {
    char hex[2 * ENGINE_HASH_BYTES + 1];
} engine_receipt;

/* "order"|"play"|"timeout"|"system" <-> kind. parse returns 0 or
 * ENGINE_EINVALID; name returns "unknown" for a value out of range. */
int engine_input_kind_parse(const char *name, engine_input_kind *out);
const char *engine_input_kind_name(engine_input_kind kind);
/* The receipt is the lower-case hex SHA-256 of five parts, each written as
 * its byte length (8 bytes, big-endian) then its bytes: the game id, the
 * window id, the seat in decimal ASCII, the canonical JSON of the order
 * (engine_canonical_json) and the 16 raw nonce bytes. Cannot fail. */
void engine_receipt_compute(const char *game_id, const char *window, int seat,
                            const json_t *order,
                            const uint8_t nonce[ENGINE_NONCE_BYTES],
                            engine_receipt *out);

/* The stored/exported form of an input: {"seq","seat":N|null,"kind",
 * "window":ID|null,"payload":JSON|null,"nonce":HEX|null} (nonce for orders
 * only; the payload is deep-copied). NULL on OOM. */
json_t *engine_input_to_json(const engine_input *in, uint64_t seq);
/* Read that form into out. window and payload are borrowed from j (keep j
 * alive while out is used); seq (may be NULL) receives "seq", which is then
 * required. Unknown fields are ignored; an order must carry its nonce.
 * Returns 0 or ENGINE_EINVALID naming the field. */
int engine_input_from_json(const json_t *j, engine_input *out, uint64_t *seq,
                           engine_error *err);

/* ------------------------------------------------------------ rulesets -- */
typedef struct engine_ruleset engine_ruleset; /* see engine/ruleset.h */

/* A bot level a ruleset offers: an id for engine_bot_action, a title for
 * players. */
typedef struct engine_bot_level {
    const char *id;
    const char *title;
} engine_bot_level;

/* Validate every ruleset's built-in data (cards, boards) once, before any
 * other call; safe to call again (it then does nothing). Not thread-safe:
 * call it from main before starting threads. Returns 0 or fills err. */
int engine_init(engine_error *err);

/* Add a ruleset that is not in the build's list (the test-only rulesets of
 * unit tests and benchmarks), before engine_init and from main like it. It
 * can be found by engine_ruleset_find but is not in engine_rulesets (so
 * clients never see it). Borrowed for the life of the process. Returns 0;
 * ENGINE_ECONFLICT after engine_init or past 8; ENGINE_EINVALID for a
 * missing or taken id. */
int engine_register_ruleset(const engine_ruleset *rs, engine_error *err);
/* Borrowed; NULL when unknown. */
const engine_ruleset *engine_ruleset_find(const char *id);
/* All registered rulesets, in registry order; *n receives the count. */
const engine_ruleset *const *engine_rulesets(size_t *n);
/* A description for clients: {"id","title","summary","min_seats",
 * "max_seats","options": JSON Schema,"bot_levels":[{"id","title"}]} (the
 * first bot level is the default). */
json_t *engine_ruleset_describe(const engine_ruleset *rs);
/* Check a game's options (NULL means none) for a seat count: the seat count
 * in range (field "seats"), options an object, every key declared in the
 * ruleset's options table with a value of its kind, then the ruleset's own
 * rules across fields and seats. 0, or ENGINE_EINVALID naming the field. */
int engine_check_options(const engine_ruleset *rs, const json_t *options,
                         int seats, engine_error *err);
/* The options a NEW game of rs is stored and created with: a copy of
 * options (NULL: {}) plus every member of rs's new_game_options that
 * options lack (versioned rules: games stored before lack the key and
 * replay as they were played). A NEW object, or NULL when out of memory.
 * Call it once, when the game is made, never on a stored game's options. */
json_t *engine_options_stamp(const engine_ruleset *rs, const json_t *options);
/* The bot levels rs offers (borrowed, *n entries, at least one); the first
 * is the default. */
const engine_bot_level *engine_bot_levels(const engine_ruleset *rs, int *n);
/* Whether rs offers bot level `level`. */
int engine_bot_level_known(const engine_ruleset *rs, const char *level);
/* The largest sealed order rs takes, in bytes of canonical JSON (and of a
 * request body carrying one): its max_order_bytes, or
 * ENGINE_ORDER_BYTES_DEFAULT when it declares none. Cannot fail. */
size_t engine_max_order_bytes(const engine_ruleset *rs);
/* The largest engine_max_order_bytes of every ruleset engine_ruleset_find
 * knows (the built-in ones and those added with engine_register_ruleset):
 * what an edge may read before it knows a request's game. Cannot fail. */
size_t engine_max_order_bytes_any(void);
/* The step window stands for, in words for players, into out (n bytes,
 * NUL ended, at most n - 1 characters): rs's window_label when it names
 * the id, else words made of the id ("r3.vote" -> "Round 3: vote",
 * "management.6" -> "Management": a trailing serial number is dropped,
 * '_' reads as a space). rs may be NULL (words of the id). Cannot fail;
 * an empty id gives "Your move". */
#define ENGINE_WINDOW_LABEL_MAX 96
void engine_window_label(const engine_ruleset *rs, const char *window,
                         char *out, size_t n);
/* rs's name for players ("Tic-tac-toe"...; its id when it has none).
 * Borrowed. */
const char *engine_ruleset_title(const engine_ruleset *rs);
/* rs's stable id ("tictactoe"...). Borrowed. */
const char *engine_ruleset_id(const engine_ruleset *rs);
/* The GET /me member rs's per-player record is shown under, or NULL when rs
 * keeps no record. */
const char *engine_record_key(const engine_ruleset *rs);
/* rs's record hook (see ruleset.h): the NEW record after a finished game
 * (old NULL: none yet; result NULL: the record of a player without games),
 * or NULL when the game leaves it unchanged or rs keeps no record. */
json_t *engine_record_next(const engine_ruleset *rs, const json_t *old,
                           const json_t *options, int seats, int seat,
                           const json_t *result);
/* rs's record_choose hook (see ruleset.h) on a player's stored record: 0
 * with the NEW record in *next, or an engine error code (ENGINE_ECONFLICT
 * when rs takes no choices or the record waits for none). */
int engine_record_choose(const engine_ruleset *rs, const json_t *record,
                         const json_t *choice, json_t **next,
                         engine_error *err);

/* --------------------------------------------------------------- games -- */
typedef struct engine_game engine_game;

/* Create a game. options may be NULL (defaults); it is validated against the
 * ruleset (ENGINE_EINVALID naming the field) and kept as given ({} for
 * NULL). game_id is copied and used in receipts. Returns NULL and fills err
 * on failure: ENGINE_ENOTFOUND for an unknown ruleset, ENGINE_EINVALID for
 * options or a seat count out of range (field "seats"), ENGINE_EINTERNAL if
 * engine_init has not run. */
engine_game *engine_create(const char *ruleset_id, const char *game_id,
                           const json_t *options, int seats,
                           const uint8_t seed[ENGINE_SEED_BYTES],
                           engine_error *err);
void engine_free(engine_game *g);
/* A deep copy (for search and speculative application); the copy and the
 * original change independently (immutable log entries are shared, with
 * jansson's atomic reference counts). NULL on OOM. */
engine_game *engine_clone(const engine_game *g);

/* Apply one input. On success returns 0 and, for an accepted order, fills
 * receipt (may be NULL). On failure the game is unchanged. The answers:
 *  - any input to a finished or aborted game: ENGINE_EOVER;
 *  - ORDER: the window must be open and sealed (else ENGINE_ECONFLICT; also
 *    for an unknown or already locked window), the seat must be in it (else
 *    ENGINE_EFORBIDDEN; also for a seat number out of range), the payload a
 *    JSON object the ruleset's check_order accepts (else ENGINE_EINVALID).
 *    The core holds it; a second order of the seat replaces the first. When
 *    every seat of the window has ordered, the window locks: a public
 *    {"type":"reveal"} log entry, a private {"type":"your_order"} one per
 *    seat, then the ruleset resolves all orders together;
 *  - PLAY: the window must be open and of mode open, and the seat one that
 *    acts there (else ENGINE_ECONFLICT; ENGINE_EFORBIDDEN for a seat number
 *    out of range); then the ruleset validates the play;
 *  - TIMEOUT: the window must be open (else ENGINE_ECONFLICT). Sealed: each
 *    missing seat gets the ruleset's default order, then the window locks.
 *    Open: the ruleset's timeout rule applies (ENGINE_ECONFLICT if none);
 *  - SYSTEM {"action":"withdraw"} with a window: removes the seat's held
 *    order (ENGINE_ECONFLICT if it holds none); {"action":"abort"} ends the
 *    game, dropping held orders unrevealed; the priority actions below;
 *    anything else ENGINE_EINVALID.
 * Priority windows (rulesets that use priority and the stack, see
 * engine/priority.c): the core lists one open window "STEP.N" whose seat is
 * the one holding priority. A PLAY {"action":"pass"} there passes (it may
 * carry "until" and "stop_if_targeted" to set a response rule at once); any
 * other play goes to the ruleset. A TIMEOUT there is a pass unless the
 * ruleset says otherwise. SYSTEM {"action":"respond","until":
 * "stack_changes"|"my_turn"|"end_of_turn"|"never","stop_if_targeted":bool}
 * sets the seat's response rule (window ignored); {"action":"undo"} takes
 * back the seat's last undoable play, or asks the other seats to agree;
 * {"action":"undo_consent"} / {"action":"undo_refuse"} answer such a
 * request. ENGINE_ECONFLICT when there is nothing to undo or answer.
 * Nothing in an error reveals another seat's held order. The one exception
 * to "unchanged": ENGINE_EINTERNAL after running out of memory inside a
 * ruleset's change; discard such a game and rebuild it from its inputs. */
int engine_apply(engine_game *g, const engine_input *in,
                 engine_receipt *receipt, engine_error *err);

/* Open windows into out[0..max); returns the number open (may exceed max);
 * 0 once the game is over. `submitted` is filled for sealed windows. */
int engine_windows(const engine_game *g, engine_window *out, int max);
/* Every open window, however many: a malloc'd array of *n windows (the
 * caller frees it), filled as engine_windows does. NULL with *n = 0 when
 * none is open; NULL with *n = 0 also when memory runs out (callers that
 * must tell the two apart check engine_windows(g, NULL, 0)). This is the
 * one way to list windows without a cap. */
engine_window *engine_windows_all(const engine_game *g, int *n);

/* 1 when order (any JSON, may be NULL) holds "ready": true, else 0. */
int engine_order_is_ready(const json_t *order);

/* The order seat holds in window (borrowed, valid until the next
 * engine_apply or engine_free on g), or NULL when it holds none (also for
 * a window that is not open or a seat out of range). Secret: never show it
 * to anyone but seat. Cannot fail. */
const json_t *engine_held_order(const engine_game *g, const char *window,
                                int seat);

/* What seat (or ENGINE_PUBLIC) may see now: the ruleset's view, plus the
 * common fields "ruleset", "seats", "inputs" (count applied), "over", and for
 * a seat its own pending sealed orders under "my_orders" {window: order}.
 * Once a game has used priority the core adds "priority" (window, step,
 * holder, active, turn, round, passed, undo, and for a seat "my_rule") and
 * "stack" (bottom first; hidden parts only for the seats allowed them).
 * A seat number out of range gets the public view. NULL on OOM. */
json_t *engine_view(const engine_game *g, int seat);

/* What seat may do now: {"windows":[{"window","mode","kind":"order"|"play",
 * "shape": JSON Schema, "choices": [...] | null}]}, plus "parts": true for
 * a sealed window that takes its order in parts; empty list when none
 * (and for spectators). Sealed windows stay listed after the seat ordered:
 * it may replace the order. */
json_t *engine_legal(const engine_game *g, int seat);

/* A uniformly random legal input for seat, or a heuristic one at a bot level
 * ("random", "basic", ...), for the first open window that waits on seat
 * (sealed windows it has already ordered in are skipped). Fills out
 * (payload is a NEW reference the caller must json_decref; out->window
 * points into out->window_buf; out->nonce is drawn from rng). Returns
 * ENGINE_ECONFLICT when seat has nothing to do, ENGINE_EOVER after the end,
 * ENGINE_EFORBIDDEN for a seat out of range, ENGINE_EINVALID (field
 * "level") for a level the ruleset lacks. Does not change the game. */
int engine_bot_action(const engine_game *g, int seat, const char *level,
                      engine_rng *rng, engine_input *out, engine_error *err);

/* Log entries after index `after` (0 = from the start) that seat may see:
 * [{"seq":N,"seat":null|SEAT,"entry":{...}}] where seq counts every entry
 * of the game from 1 (so a seat sees gaps where others' private entries
 * are) and "seat" is the one audience of a private entry. An entry for a
 * set of seats has "seat":null and "seats":[...], and reaches only those
 * seats (never spectators). A seat out of range sees the public entries.
 * The entries are copies. NULL on OOM. */
json_t *engine_log_since(const engine_game *g, int seat, size_t after);
/* engine_log_since, at most max entries (0: no limit); *more (may be NULL)
 * is set to 1 when seat may see entries after the last one returned (ask
 * again with after = its seq), else 0. NULL on OOM. */
json_t *engine_log_page(const engine_game *g, int seat, size_t after,
                        size_t max, int *more);
size_t engine_log_length(const engine_game *g);

/* The whole state, seed, RNG, held orders and private log included (never
 * send it to a client). NULL on OOM. */
json_t *engine_save(const engine_game *g);
/* Rebuild a game from engine_save's output; every field is checked.
 * ENGINE_EINTERNAL for a corrupt document, ENGINE_ENOTFOUND for an unknown
 * ruleset. */
engine_game *engine_load(const json_t *saved, engine_error *err);
/* SHA-256 of the canonical JSON of engine_save; equal exactly when the
 * saved states are. Aborts the process only if memory runs out. */
void engine_hash(const engine_game *g, uint8_t out[ENGINE_HASH_BYTES]);

/* The audiences whose view (apart from the common fields "inputs" and
 * "over") the last successful engine_apply may have changed: a mask of
 * seat bits and ENGINE_AUDIENCE_PUBLIC. Rulesets narrow it with
 * engine_ctx_touch; otherwise any ruleset change, any priority or stack
 * change, and a loaded or new game count as ENGINE_AUDIENCE_ALL. Not part
 * of the saved state. Cannot fail. */
uint32_t engine_touched(const engine_game *g);

int engine_is_over(const engine_game *g);
/* 1 when g's rules close table talk to seat now, with the reason in why
 * (n bytes); else 0 (also for a seat out of range, and for a ruleset
 * without the talk_closed hook). */
int engine_talk_closed(const engine_game *g, int seat, char *why, size_t n);
/* 1 if a SYSTEM abort ended the game (engine_is_over is then 1 too). */
int engine_is_aborted(const engine_game *g);
/* NULL while running; else {"winners":[seats],"scores":[...],...}, or
 * {"aborted":true} after an abort. */
json_t *engine_result(const engine_game *g);

/* Replay an export {"format":"conclave-export/1","game_id","ruleset",
 * "options","seats":N|[...],"seed":HEX,"inputs":[stored inputs, see
 * engine_input_to_json, in seq order],"final_hash":HEX,...} from its seed.
 * Returns 0 when every input was accepted, filling hash with the final
 * engine_hash and *match (may be NULL) with 1 if it equals "final_hash"
 * (0 if it differs or is absent). An order that carries "receipt" must
 * reproduce it. On failure returns the error (err names the input by seq);
 * hash and *match are then not set. If out is not NULL it receives the
 * replayed game (the caller frees it), also on an input failure, where it
 * holds the state before the failing input; NULL on an export error. */
int engine_replay_export(const json_t *export_doc,
                         uint8_t hash[ENGINE_HASH_BYTES], int *match,
                         engine_game **out, engine_error *err);

/* A twin world for seat (tests: hidden information by construction, see
 * engine/twin.c): a NEW game that seat cannot tell from g (its engine_view
 * and the log it sees are the same) but that differs, where the rules
 * allow, in what seat may not know: the ruleset's twin hook varies the
 * state (other seats' hands, the deck order, unexplored space), and the
 * core replaces other seats' held sealed orders with random legal ones
 * (with ENGINE_TWIN_KEEP_ORDERS in flags: only those the twin state makes
 * illegal); the game's RNG gets a new key at the same position (the
 * numbers to come are as secret as the seed). Draws only from rng (never
 * the game's RNG). NULL when the ruleset has no hook,
 * the hook finds no twin for this state, seat is out of range or memory
 * runs out. */
#define ENGINE_TWIN_KEEP_ORDERS 1u
engine_game *engine_twin(const engine_game *g, int seat, engine_rng *rng,
                         unsigned flags);

/* Accessors (borrowed where pointers). Cannot fail. */
const engine_ruleset *engine_game_ruleset(const engine_game *g);
const char *engine_game_id(const engine_game *g);
int engine_game_seats(const engine_game *g);
const json_t *engine_game_options(const engine_game *g);
uint64_t engine_game_inputs(const engine_game *g); /* inputs applied */
const uint8_t *engine_game_seed(const engine_game *g);
void engine_seed_sha256_hex(const engine_game *g, char out[65]);

#endif
