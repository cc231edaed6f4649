/*
 * fuzz_cards.c - libFuzzer harness for Galactic Sprint's card-data loader
 * (sprint_cards_parse, engine/rules/sprint/sprint.h).
 *
 * An input is a cards.json text. The parser must either accept it or refuse
 * it with ENGINE_EINVALID and a message; never crash, leak or read out of
 * bounds. An accepted set must be self-consistent (counts within their
 * bounds, every deck instance naming a design, the survey card a
 * development, keys and names terminated), parsing must be deterministic,
 * and every design's rules text and JSON must render. A broken invariant
 * aborts, which libFuzzer reports as a crash.
 *
 * Built and run by tests/fuzz/run.sh (make fuzz); seeds in
 * tests/fuzz/corpus/cards.
 */
#include "engine/rules/sprint/sprint.h"
#include "engine/rules/sprint/sprint_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__,         \
                    __LINE__, #cond);                                          \
            abort();                                                           \
        }                                                                      \
    } while (0)

static int terminated(const char *s, size_t n)
{
    return memchr(s, '\0', n) != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static sprint_cardset a, b; /* large: keep them off the stack */
    engine_error err;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&err, 0, sizeof err);
    int rc = sprint_cards_parse((const char *)data, size, &a, &err);
    if (rc != 0) {
        CHECK(rc == ENGINE_EINVALID);
        CHECK(err.code == rc);
        CHECK(terminated(err.msg, sizeof err.msg) && err.msg[0]);
        CHECK(terminated(err.field, sizeof err.field));
        return 0;
    }
    CHECK(a.ndesigns > 0 && a.ndesigns <= SPRINT_MAX_DESIGNS);
    CHECK(a.ndeck >= 0 && a.ndeck <= SPRINT_MAX_DECK);
    CHECK(a.survey >= 0 && a.survey < a.ndesigns);
    CHECK(a.designs[a.survey].central);
    CHECK(a.designs[a.survey].kind == SPRINT_DEVELOPMENT);
    CHECK(terminated(a.sha256, sizeof a.sha256) && strlen(a.sha256) == 64);
    for (int i = 0; i < a.ndeck; i++)
        CHECK(a.deck_design[i] < a.ndesigns);
    for (int i = 0; i < a.ndesigns; i++) {
        const sprint_design *d = &a.designs[i];
        CHECK(terminated(d->key, sizeof d->key) && d->key[0]);
        CHECK(terminated(d->name, sizeof d->name) && d->name[0]);
        CHECK(d->kind == SPRINT_DEVELOPMENT || d->kind == SPRINT_WORLD);
        CHECK(d->colour < SPRINT_NCOLOURS);
        CHECK(d->nab <= SPRINT_MAX_ABILITIES);
        for (int k = 0; k < d->nab; k++) {
            CHECK(d->ab[k].type < SPRINT_AB_COUNT);
            CHECK(d->ab[k].what < SPRINT_W_COUNT);
        }
        CHECK(terminated(d->text, sizeof d->text));
        json_t *j = sprint_design_json(d);
        CHECK(j != NULL);
        char *dumped = json_dumps(j, JSON_COMPACT);
        CHECK(dumped != NULL);
        free(dumped);
        json_decref(j);
    }
    /* Deterministic and pure: the same text gives the same set. */
    CHECK(sprint_cards_parse((const char *)data, size, &b, &err) == 0);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    return 0;
}
