/*
 * signin_links.c - one-time sign-in links by mail (see signin_links.h).
 */
#include "server/players/signin_links.h"

#include "server/notify/notify_rules.h"
#include "server/notify/notify_settings.h"

#include <openssl/rand.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DB_WAIT_MS 2000
#define LINK_BYTES 32

static void sha256_hex(const char *s, char hex[65])
{
    unsigned char d[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)s, strlen(s), d);
    for (int i = 0; i < SHA256_DIGEST_LENGTH; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

int signin_next_ok(const char *next)
{
    size_t n = next ? strlen(next) : 0;
    if (n == 0 || n >= SIGNIN_NEXT_MAX || next[0] != '/' || strstr(next, "//"))
        return 0;
    for (const char *c = next; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              (*c >= '0' && *c <= '9') || strchr("/_-", *c)))
            return 0;
    return 1;
}

static int exec_ok(PGconn *c, const char *sql, int n, const char *const *p)
{
    PGresult *r = db_exec(c, PGRES_COMMAND_OK, sql, n, p);
    if (!r)
        return -1;
    PQclear(r);
    return 0;
}

/* The player whose verified address is email (in any case) and who may
 * have one more link this hour, into player (STORE_ID_MAX), name and addr
 * (the address as stored); 1 found, 0 none, -1 on a database failure. */
static int find_player(PGconn *c, const char *email, char *player, char *name,
                       size_t namelen, char *addr, size_t addrlen)
{
    char most[16];
    snprintf(most, sizeof most, "%d", SIGNIN_LINKS_PER_HOUR);
    const char *p[] = {email, most};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "SELECT p.id, p.name, s.email FROM notify_settings s JOIN players p ON "
        "p.id = "
        " s.player_id WHERE lower(s.email) = lower($1) AND s.email_verified "
        " AND (SELECT count(*) FROM signin_links l WHERE l.player_id = p.id "
        " AND l.created_at > now() - interval '1 hour') < $2::int "
        "ORDER BY p.id LIMIT 1 FOR UPDATE OF p",
        2, p);
    if (!r)
        return -1;
    int found = PQntuples(r) == 1;
    if (found) {
        snprintf(player, STORE_ID_MAX, "%s", PQgetvalue(r, 0, 0));
        snprintf(name, namelen, "%s", PQgetvalue(r, 0, 1));
        snprintf(addr, addrlen, "%s", PQgetvalue(r, 0, 2));
    }
    PQclear(r);
    return found;
}

static int queue_link(PGconn *c, const char *player, const char *name,
                      const char *email, const char *next, const char *base_url)
{
    unsigned char raw[LINK_BYTES];
    char token[2 * LINK_BYTES + 1], hash[65], id[96];
    if (RAND_bytes(raw, sizeof raw) != 1)
        return -1;
    for (int i = 0; i < LINK_BYTES; i++)
        snprintf(token + 2 * i, 3, "%02x", raw[i]);
    sha256_hex(token, hash);
    snprintf(id, sizeof id, "signin:%s:%.16s", player, hash);
    char minutes[8];
    snprintf(minutes, sizeof minutes, "%d", SIGNIN_LINK_MINUTES);
    const char *p[] = {hash, player, next, minutes};
    if (exec_ok(c,
                "INSERT INTO signin_links (hash, player_id, next_path, "
                "expires_at) VALUES (decode($1, 'hex'), $2, $3, now() + "
                "make_interval(mins => $4::int))",
                4, p) != 0)
        return -1;
    size_t cap = strlen(base_url) + strlen(next) + 768;
    char *body = malloc(cap);
    if (!body)
        return -1;
    snprintf(body, cap,
             "Hello %s,\r\n\r\nSomeone (we hope you) asked to sign in to "
             "Conclave as %s on another device.\r\n\r\nTo sign in, open "
             "this page and press its button:\r\n%s/signin?token=%s&next=%s"
             "\r\n\r\nThe link works once, for %d minutes. If it was not "
             "you, ignore this mail: nobody is signed in until the button "
             "is pressed.\r\n",
             name, name, base_url, token, next, SIGNIN_LINK_MINUTES);
    int rc = notify_queue_account_mail(c, id, email, player,
                                       "Your sign-in link for Conclave", body);
    free(body);
    return rc;
}

srv_kind signin_link_request(db_pool *db, const char *email, const char *next,
                             const char *base_url, srv_error *err)
{
    if (!email || !notify_email_ok(email))
        return srv_fail(err, SRV_INVALID, "email", "email must be one address");
    if (!next)
        next = "/";
    if (!signin_next_ok(next))
        return srv_fail(err, SRV_INVALID, "next",
                        "next must be a path of this site (\"/game/ID\")");
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    char player[STORE_ID_MAX], name[32], addr[256];
    int rc = exec_ok(c, "BEGIN", 0, NULL);
    int found = rc == 0 ? find_player(c, email, player, name, sizeof name, addr,
                                      sizeof addr)
                        : -1;
    if (found == 1)
        rc = queue_link(c, player, name, addr, next, base_url);
    if (found < 0 || rc != 0 || exec_ok(c, "COMMIT", 0, NULL) != 0) {
        db_release(db, c, db_conn_broken(c));
        return srv_db_failed(err);
    }
    db_release(db, c, 0);
    return SRV_OK;
}

srv_kind signin_link_redeem(db_pool *db, const char *link_token, char *token,
                            char *player_id, char *name, char *next,
                            srv_error *err)
{
    if (!link_token || strlen(link_token) != 2 * LINK_BYTES)
        return srv_fail(err, SRV_NOT_FOUND, NULL,
                        "unknown, used or expired link: ask for a new one");
    char hash[65];
    sha256_hex(link_token, hash);
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    const char *p[] = {hash};
    srv_kind k = exec_ok(c, "BEGIN", 0, NULL) ? srv_db_failed(err) : SRV_OK;
    PGresult *r =
        k != SRV_OK
            ? NULL
            : db_exec(c, PGRES_TUPLES_OK,
                      "UPDATE signin_links l SET used_at = now() FROM players "
                      "p WHERE l.hash = decode($1, 'hex') AND l.used_at IS "
                      "NULL AND l.expires_at > now() AND p.id = l.player_id "
                      "RETURNING p.id, p.name, l.next_path",
                      1, p);
    if (k == SRV_OK && !r)
        k = srv_db_failed(err);
    else if (r && PQntuples(r) != 1)
        k = srv_fail(err, SRV_NOT_FOUND, NULL,
                     "unknown, used or expired link: ask for a new one");
    if (k == SRV_OK) {
        snprintf(player_id, STORE_ID_MAX, "%s", PQgetvalue(r, 0, 0));
        snprintf(name, 32, "%s", PQgetvalue(r, 0, 1));
        snprintf(next, SIGNIN_NEXT_MAX, "%s", PQgetvalue(r, 0, 2));
        k = tokens_issue(c, player_id, token);
        if (k == SRV_INTERNAL)
            srv_fail(err, k, NULL, "no randomness for the token");
        else if (k != SRV_OK)
            srv_db_failed(err);
    }
    PQclear(r);
    if (k == SRV_OK && exec_ok(c, "COMMIT", 0, NULL) != 0)
        k = srv_db_failed(err);
    if (k != SRV_OK)
        exec_ok(c, "ROLLBACK", 0, NULL);
    db_release(db, c, db_conn_broken(c));
    return k;
}
