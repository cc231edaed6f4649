/*
 * cli_selfplay.c - `conclave selfplay`: bots play many games of one ruleset
 * in-process, through the same engine_apply the server uses, and one JSON
 * line reports the speed and a histogram of results.
 *
 * A run is reproducible from --seed: with K = SHA-256("conclave-selfplay/1"
 * || seed), game i's seed is bytes 32i..32i+31 of the ChaCha20 stream
 * (K, stream 1), and the bots draw, game after game, from stream 2 (never
 * from a game's own RNG). Two streams instead of a hash per game keep the
 * crypto out of the speed figure: one keystream refill serves 8 games. With
 * --check a shadow game loaded from a save follows every input, the two are
 * compared in full at checkpoints drawn from a third stream, and every
 * finished game is replayed from its export (selfplay_check.c); a checked
 * run plays the same games as an unchecked one, more slowly.
 *
 * --bot names one bot level for every seat, or a comma list with one level
 * per seat ("basic,random": seat 0 basic, seat 1 random) for tables of
 * mixed bots. The results histogram counts winning seats, "draw", "loss"
 * (nobody won and it is not a draw: a solitaire game lost) and "aborted".
 *
 * The clock is read here, not in the engine (which has none).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/ruleset.h"
#include "server/runtime/cli.h"
#include "server/runtime/selfplay_check.h"

#define SEED_STREAM 1
#define BOT_STREAM 2
#define CHECK_STREAM 3
#define MAX_INPUTS_PER_GAME 1000000
#define MAX_SEED_BYTES 64
#define MAX_LEVEL 32

typedef struct selfplay_opts {
    const engine_ruleset *rs;
    int seats;
    long games;
    uint8_t seed[MAX_SEED_BYTES];
    size_t seed_len;
    const char *bot; /* as given: one level, or one per seat */
    char bots[ENGINE_MAX_SEATS][MAX_LEVEL]; /* each seat's level */
    json_t *options;
    int check;
} selfplay_opts;

/* What a run carries from game to game: its three streams and counts. */
typedef struct selfplay_run {
    engine_rng seeds;  /* each game's seed */
    engine_rng bots;   /* the bots' choices */
    engine_rng checks; /* --check's checkpoints: apart, so that a checked
                          run plays exactly the games an unchecked one does */
    uint64_t inputs;
    uint64_t checkpoints;
} selfplay_run;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: conclave selfplay --ruleset ID [--seats N] [--games G] "
            "[--seed HEX]\n"
            "                         [--bot LEVEL[,LEVEL...]] [--options "
            "JSON] [--check]\n\n"
            "Play G games (default 1000) between bots in-process and print "
            "one JSON line:\n"
            "{\"ruleset\",\"seats\",\"games\",\"bot\",\"inputs\",\"seconds\","
            "\"games_per_s\",\"inputs_per_s\",\"results\":{...}}.\n"
            "--seats defaults to the ruleset's minimum, --seed (1 to 64 bytes "
            "in hex) to 00.\n"
            "--bot (default random) is one level for every seat, or a comma "
            "list of one\nlevel per seat (basic,random: seat 0 basic, seat 1 "
            "random).\n"
            "--check plays a game loaded from a save beside every game, "
            "compares the two\nin full at drawn checkpoints and replays "
            "every game from its export; exit\nstatus 1 if anything "
            "disagrees.\n");
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Fill o->bots from o->bot: one level for every seat, or exactly one per
 * seat. Returns 0, or 2 after printing a usage error. */
static int split_bots(selfplay_opts *o)
{
    const char *p = o->bot;
    int n = 0;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= MAX_LEVEL) {
            fprintf(stderr,
                    "conclave selfplay: --bot \"%s\": each level must be 1 "
                    "to %d characters\n",
                    o->bot, MAX_LEVEL - 1);
            return 2;
        }
        if (n < ENGINE_MAX_SEATS) {
            memcpy(o->bots[n], p, len);
            o->bots[n][len] = '\0';
        }
        n++;
        if (!p[len])
            break;
        p += len + 1;
    }
    if (n != 1 && n != o->seats) {
        fprintf(stderr,
                "conclave selfplay: --bot lists %d levels for %d seats; give "
                "one level for all seats or one per seat\n",
                n, o->seats);
        return 2;
    }
    for (int i = 1; n == 1 && i < o->seats; i++)
        memcpy(o->bots[i], o->bots[0], MAX_LEVEL);
    return 0;
}

/* Returns 0, 1 after --help, or 2 after printing a usage error. */
static int parse_args(int argc, char **argv, selfplay_opts *o)
{
    const char *ruleset = NULL;
    long seats = 0;
    memset(o, 0, sizeof *o);
    o->games = 1000;
    o->seed_len = 1;
    o->bot = "random";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(a, "--check")) {
            o->check = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "conclave selfplay: %s needs a value\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--ruleset")) {
            ruleset = v;
        } else if (!strcmp(a, "--seats")) {
            if (parse_long(v, 1, ENGINE_MAX_SEATS, &seats) != 0) {
                fprintf(stderr, "conclave selfplay: bad --seats %s\n", v);
                return 2;
            }
        } else if (!strcmp(a, "--games")) {
            if (parse_long(v, 1, 1000000000L, &o->games) != 0) {
                fprintf(stderr, "conclave selfplay: bad --games %s\n", v);
                return 2;
            }
        } else if (!strcmp(a, "--seed")) {
            size_t n = strlen(v) / 2;
            if (strlen(v) % 2 || n < 1 || n > MAX_SEED_BYTES ||
                engine_unhex(v, o->seed, n) != 0) {
                fprintf(stderr, "conclave selfplay: --seed takes 2 to 128 "
                                "hex digits\n");
                return 2;
            }
            o->seed_len = n;
        } else if (!strcmp(a, "--bot")) {
            o->bot = v;
        } else if (!strcmp(a, "--options")) {
            json_error_t jerr;
            json_decref(o->options);
            o->options = json_loads(v, 0, &jerr);
            if (!json_is_object(o->options)) {
                fprintf(stderr, "conclave selfplay: --options must be a JSON "
                                "object\n");
                return 2;
            }
        } else {
            fprintf(stderr, "conclave selfplay: unknown option %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!ruleset) {
        fprintf(stderr, "conclave selfplay: --ruleset is required\n");
        usage(stderr);
        return 2;
    }
    o->rs = engine_ruleset_find(ruleset);
    if (!o->rs) {
        fprintf(stderr, "conclave selfplay: unknown ruleset \"%s\"\n", ruleset);
        return 2;
    }
    o->seats = seats ? (int)seats : o->rs->min_seats;
    /* New games: the current edition of versioned rules, as a lobby's. */
    json_t *stamped = engine_options_stamp(o->rs, o->options);
    json_decref(o->options);
    o->options = stamped;
    return split_bots(o);
}

/* K = SHA-256("conclave-selfplay/1" || seed): the key of the run's seed
 * and bot streams. */
static void run_key(const selfplay_opts *o, uint8_t out[ENGINE_HASH_BYTES])
{
    static const char tag[] = "conclave-selfplay/1";
    uint8_t buf[sizeof tag - 1 + MAX_SEED_BYTES];
    memcpy(buf, tag, sizeof tag - 1);
    memcpy(buf + sizeof tag - 1, o->seed, o->seed_len);
    engine_sha256(buf, sizeof tag - 1 + o->seed_len, out);
}

/* The histogram key of a result: "aborted", "draw", "loss" (no winner and
 * no draw: a solitaire game lost), or the winning seats ("0", "1,2"). */
static void result_key(const json_t *res, char *out, size_t size)
{
    const json_t *winners = json_object_get(res, "winners");
    size_t i, used = 0;
    json_t *w;
    if (json_is_true(json_object_get(res, "aborted"))) {
        snprintf(out, size, "aborted");
        return;
    }
    if (json_array_size(winners) == 0) {
        snprintf(out, size, "%s",
                 json_is_true(json_object_get(res, "draw")) ? "draw" : "loss");
        return;
    }
    out[0] = '\0';
    json_array_foreach(winners, i, w)
    {
        int n = snprintf(out + used, size - used, "%s%lld", i ? "," : "",
                         (long long)json_integer_value(w));
        if (n < 0 || (size_t)n >= size - used)
            break;
        used += (size_t)n;
    }
}

/* Play game `index`, seeded from `seeds`, to the end. Returns 0, or 1 on
 * a failure (reported). */
static int play_one(const selfplay_opts *o, long index, selfplay_run *run,
                    json_t *histogram)
{
    uint8_t seed[ENGINE_SEED_BYTES];
    char id[32], key[64];
    engine_error err = {0};
    json_t *record = o->check ? json_array() : NULL;
    selfplay_check *check = NULL;
    int status = 1;

    engine_rng_bytes(&run->seeds, seed, sizeof seed);
    snprintf(id, sizeof id, "selfplay-%ld", index);
    engine_game *g =
        engine_create(o->rs->id, id, o->options, o->seats, seed, &err);
    if (!g) {
        fprintf(stderr, "conclave selfplay: %s\n", err.msg);
        goto done;
    }
    if (o->check && !(check = selfplay_check_start(g, &run->checks, index)))
        goto done;
    while (!engine_is_over(g)) {
        engine_window w;
        engine_input in;
        if (engine_game_inputs(g) >= MAX_INPUTS_PER_GAME ||
            engine_windows(g, &w, 1) < 1) {
            fprintf(stderr,
                    "conclave selfplay: game %ld is stuck after %llu "
                    "inputs\n",
                    index, (unsigned long long)engine_game_inputs(g));
            goto done;
        }
        /* The lowest seat the first window still waits on acts. */
        uint32_t waiting =
            w.mode == ENGINE_SEALED ? w.seats & ~w.submitted : w.seats;
        int seat = 0;
        while (seat < ENGINE_MAX_SEATS && !(waiting & (1u << seat)))
            seat++;
        const char *level = o->bots[seat < o->seats ? seat : 0];
        if (engine_bot_action(g, seat, level, &run->bots, &in, &err) != 0) {
            fprintf(stderr, "conclave selfplay: game %ld, seat %d: %s\n", index,
                    seat, err.msg);
            goto done;
        }
        int rc = engine_apply(g, &in, NULL, &err);
        int checked = 1;
        if (rc == 0 && check) {
            json_array_append_new(
                record, engine_input_to_json(&in, engine_game_inputs(g)));
            checked = selfplay_check_step(check, g, &in);
        }
        json_decref((json_t *)in.payload);
        if (rc != 0) {
            fprintf(stderr,
                    "conclave selfplay: game %ld: the %s bot's %s "
                    "was refused: %s\n",
                    index, level, engine_input_kind_name(in.kind), err.msg);
            goto done;
        }
        run->inputs++;
        if (!checked)
            goto done;
    }
    if (check) {
        if (!selfplay_check_finish(check, g, record))
            goto done;
        run->checkpoints += selfplay_check_reloads(check);
    }
    json_t *res = engine_result(g);
    result_key(res, key, sizeof key);
    json_decref(res);
    json_object_set_new(
        histogram, key,
        json_integer(json_integer_value(json_object_get(histogram, key)) + 1));
    status = 0;
done:
    selfplay_check_free(check);
    engine_free(g);
    json_decref(record);
    return status;
}

int cmd_selfplay(int argc, char **argv)
{
    selfplay_opts o;
    engine_error err = {0};
    selfplay_run run = {0};
    uint8_t key[ENGINE_HASH_BYTES];
    struct timespec t0, t1, c0, c1;
    json_t *histogram = json_object();
    int status;

    if (engine_init(&err) != 0) {
        fprintf(stderr, "conclave selfplay: %s\n", err.msg);
        json_decref(histogram);
        return 2;
    }
    status = parse_args(argc, argv, &o);
    if (status != 0) {
        status = status == 1 ? 0 : 2; /* --help, or a usage error */
        goto done;
    }
    run_key(&o, key);
    engine_rng_init(&run.seeds, key, SEED_STREAM);
    engine_rng_init(&run.bots, key, BOT_STREAM);
    engine_rng_init(&run.checks, key, CHECK_STREAM);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    for (long i = 0; i < o.games && status == 0; i++)
        status = play_one(&o, i, &run, histogram);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (status == 0) {
        double secs = (double)(t1.tv_sec - t0.tv_sec) +
                      (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        double cpu = (double)(c1.tv_sec - c0.tv_sec) +
                     (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
        if (secs <= 0)
            secs = 1e-9;
        /* Rates are per wall-clock second; cpu_seconds tells how much of
         * that this process ran, for a busy machine. */
        json_t *levels = json_array();
        for (int i = 0; i < o.seats; i++)
            json_array_append_new(levels, json_string(o.bots[i]));
        json_t *out = json_pack(
            "{s:s, s:i, s:I, s:s, s:o, s:I, s:f, s:f, s:I, s:I, s:O, s:b}",
            "ruleset", o.rs->id, "seats", o.seats, "games", (json_int_t)o.games,
            "bot", o.bot, "bots", levels, "inputs", (json_int_t)run.inputs,
            "seconds", secs, "cpu_seconds", cpu, "games_per_s",
            (json_int_t)((double)o.games / secs), "inputs_per_s",
            (json_int_t)((double)run.inputs / secs), "results", histogram,
            "checked", o.check);
        if (o.check) /* how many full save/load comparisons were made */
            json_object_set_new(out, "checkpoints",
                                json_integer((json_int_t)run.checkpoints));
        json_dumpf(out, stdout, JSON_COMPACT | JSON_REAL_PRECISION(6));
        fputc('\n', stdout);
        json_decref(out);
    }
done:
    json_decref(o.options);
    json_decref(histogram);
    return status;
}
