/*
 * fuzz_ws_message.c - libFuzzer harness for the WebSocket hub's client
 * message path: reassembly of fragments (receive), parsing and validation
 * (handle), the replies and jobs it makes, and the writes (writeable), all
 * as server/hub/hub.c has them. The harness includes hub.c itself, so the
 * static functions are the real ones, and stands in for the libwebsockets
 * calls that path makes (fragment flags, close reason, writes, flow
 * control): its own definitions take precedence over the library's.
 *
 * An input is a sequence of fragments: a flags byte (bit 0 final, bit 1
 * binary), a length byte, then that many bytes (fewer at the end). The
 * size limit is set to 512 bytes so that the fuzzer reaches it.
 *
 * Properties (a broken one aborts):
 *   - receive refuses (returns -1) only for a message over the limit, and
 *     then sets close code 1009, or for a connection past the request rate
 *     limit's strikes (the hub's defaults: 20/s, burst 100, close at 100),
 *     and then sets 1008;
 *   - every complete message gets at least one answer: a reply written to
 *     the client or a job for the worker;
 *   - every frame written is one JSON object with a string "type"; an
 *     error carries an integer status 400..599 and a non-empty detail;
 *   - jobs carry a non-empty argument that fits (game ids without quotes,
 *     backslashes or control characters), a version >= -1;
 *   - no leak once the connection is closed.
 *
 * Built and run by tests/fuzz/run.sh (make fuzz); seeds in
 * tests/fuzz/corpus/ws_message.
 */
#include "server/hub/hub.c"

#include <stdint.h>
#include <stdio.h>

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__,         \
                    __LINE__, #cond);                                          \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* ---------------------------------------- libwebsockets, stood in for -- */

static int fz_final, fz_binary, fz_close_code, fz_writes, fz_paused;

int lws_is_final_fragment(struct lws *wsi)
{
    (void)wsi;
    return fz_final;
}

int lws_frame_is_binary(struct lws *wsi)
{
    (void)wsi;
    return fz_binary;
}

void lws_close_reason(struct lws *wsi, enum lws_close_status status,
                      unsigned char *buf, size_t len)
{
    (void)wsi, (void)buf, (void)len;
    fz_close_code = (int)status;
}

int lws_callback_on_writable(struct lws *wsi)
{
    (void)wsi;
    return 1;
}

int lws_rx_flow_control(struct lws *wsi, int enable)
{
    (void)wsi;
    fz_paused = !enable;
    return 0;
}

void lws_cancel_service(struct lws_context *context)
{
    (void)context;
}

/* Every frame the hub writes: one JSON object with a type. */
int lws_write(struct lws *wsi, unsigned char *buf, size_t len,
              enum lws_write_protocol wp)
{
    (void)wsi;
    CHECK(wp == LWS_WRITE_TEXT);
    json_error_t e;
    json_t *m = json_loadb((const char *)buf, len, 0, &e);
    CHECK(json_is_object(m));
    const char *type = json_string_value(json_object_get(m, "type"));
    CHECK(type != NULL);
    if (strcmp(type, "error") == 0) {
        json_t *st = json_object_get(m, "status");
        CHECK(json_is_integer(st) && json_integer_value(st) >= 400 &&
              json_integer_value(st) <= 599);
        const char *d = json_string_value(json_object_get(m, "detail"));
        CHECK(d && *d);
    } else {
        CHECK(strcmp(type, "pong") == 0);
    }
    json_decref(m);
    fz_writes++;
    return (int)len;
}

/* -------------------------------------------------------------- set-up -- */

static hub fz_hub;
static config fz_cfg;
static app fz_app;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fz_cfg.ws_max_message = 512;
    fz_cfg.ws_per_ip = 100;
    fz_app.cfg = &fz_cfg;
    fz_hub.app = &fz_app;
    fz_hub.max_message = 512;
    fz_hub.queue_max = HUB_QUEUE_DEFAULT;
    /* the hub's default rate limits (hub_start), so that floods reach them */
    fz_hub.rate = 20;
    fz_hub.rate_burst = 100;
    fz_hub.ip_rate = 200;
    fz_hub.ip_rate_burst = 1000;
    fz_hub.auth_rate = 10;
    fz_hub.auth_burst = 200;
    fz_hub.rate_close = 100;
    pthread_mutex_init(&fz_hub.lock, NULL);
    pthread_cond_init(&fz_hub.cv, NULL);
    json_t *pong = json_pack("{ss}", "type", "pong");
    fz_hub.pong = hub_msg_json(pong, HUB_MSG_REPLY);
    json_decref(pong);
    log_set_level(LOG_ERROR);
    return 0;
}

/* Take the worker's jobs (in the hub's turn order): check them, drop them
 * and their references. */
static int take_jobs(hub *h, hub_conn *c)
{
    int n = 0;
    pthread_mutex_lock(&h->lock);
    hub_job *j;
    while ((j = hub_job_pop_locked(h)) != NULL) {
        CHECK(j->conn == c);
        CHECK(memchr(j->arg, '\0', sizeof j->arg));
        CHECK(j->version >= -1);
        if (j->kind == JOB_AUTH)
            CHECK(j->arg[0] != '\0');
        if (j->kind == JOB_SUBSCRIBE || j->kind == JOB_UNSUBSCRIBE)
            CHECK(valid_id(j->arg));
        /* (the connection's job counters stay: it is a new one per input) */
        hub_job_done_locked(h, c);
        hub_conn_put_locked(h, c);
        free(j);
        n++;
    }
    pthread_mutex_unlock(&h->lock);
    return n;
}

/* Write out everything queued for c. */
static void drain(hub *h, hub_conn *c, struct lws *wsi)
{
    for (int i = 0; i < 10000; i++) {
        pthread_mutex_lock(&h->lock);
        int left = c->qlen;
        pthread_mutex_unlock(&h->lock);
        if (!left)
            return;
        CHECK(writeable(h, c, wsi) == 0);
    }
    CHECK(!"the queue does not drain");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hub *h = &fz_hub;
    struct lws *wsi = (struct lws *)&fz_hub; /* opaque; never dereferenced */
    pss p;
    hub_conn *c = calloc(1, sizeof *c);
    CHECK(c != NULL);
    c->wsi = wsi;
    c->refs = 1;
    /* its address, as ESTABLISHED gives it (one per input: fresh buckets) */
    hub_ip *ip = calloc(1, sizeof *ip);
    CHECK(ip != NULL);
    snprintf(ip->addr, sizeof ip->addr, "192.0.2.1");
    ip->count = 1;
    ip->conns = 1;
    c->ip = ip;
    p.c = c;
    pthread_mutex_lock(&h->lock);
    h->nconns++;
    pthread_mutex_unlock(&h->lock);
    fz_paused = 0;

    size_t pos = 0, msglen = 0;
    while (pos + 2 <= size) {
        fz_final = data[pos] & 1;
        fz_binary = data[pos] >> 1 & 1;
        size_t len = data[pos + 1];
        pos += 2;
        if (len > size - pos)
            len = size - pos;
        fz_close_code = 0;
        fz_writes = 0;
        msglen += len;
        int rc = receive(h, c, wsi, data + pos, len);
        pos += len;
        if (rc != 0) {
            if (c->close_due) { /* flooding: closed by the rate limit */
                CHECK(fz_close_code == LWS_CLOSE_STATUS_POLICY_VIOLATION);
            } else {
                CHECK(msglen > h->max_message);
                CHECK(fz_close_code == LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE);
            }
            break;
        }
        CHECK(msglen <= h->max_message);
        if (fz_final) {
            int jobs = take_jobs(h, c);
            drain(h, c, wsi);
            CHECK(jobs + fz_writes >= 1);
            msglen = 0;
        }
    }
    take_jobs(h, c);
    drain(h, c, wsi);
    /* The connection goes: everything it holds is freed (LeakSanitizer). */
    closed(h, &p);
    free(ip);
    return 0;
}
