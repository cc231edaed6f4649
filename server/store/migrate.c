/*
 * migrate.c - apply sql/NNN_name.sql files in order, each exactly once,
 * and say which one the database is at (start-up, the readiness probe).
 */
#include "server/store/migrate.h"

#include "server/runtime/log.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How long the readiness probe waits for a pooled connection. */
#define PROBE_WAIT_MS 1000

/* Any constant: identifies Conclave's migration lock among advisory locks. */
#define MIGRATION_LOCK_KEY "7208374501"

typedef struct migration {
    int number;
    char name[256];
} migration;

static int by_number(const void *a, const void *b)
{
    return ((const migration *)a)->number - ((const migration *)b)->number;
}

/* Lists NNN_name.sql files sorted by number; returns count or -1. */
static int list_migrations(const char *dir, migration **out, char *err,
                           size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "cannot open migrations folder \"%s\"", dir);
        return -1;
    }
    migration *list = NULL;
    int n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *name = e->d_name;
        size_t len = strlen(name);
        if (len < 9 || len >= sizeof list->name ||
            strcmp(name + len - 4, ".sql") != 0)
            continue;
        if (name[0] < '0' || name[0] > '9' || name[1] < '0' || name[1] > '9' ||
            name[2] < '0' || name[2] > '9' || name[3] != '_')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            migration *grown = realloc(list, (size_t)cap * sizeof *list);
            if (!grown) {
                free(list);
                closedir(d);
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            list = grown;
        }
        list[n].number = atoi(name);
        memcpy(list[n].name, name, len + 1);
        for (int i = 0; i < n; i++) {
            if (list[i].number == list[n].number) {
                snprintf(err, errlen, "two migrations numbered %03d: %s, %s",
                         list[n].number, list[i].name, list[n].name);
                free(list);
                closedir(d);
                return -1;
            }
        }
        n++;
    }
    closedir(d);
    if (n)
        qsort(list, (size_t)n, sizeof *list, by_number);
    *out = list;
    return n;
}

int migrate_latest(const char *dir, char *err, size_t errlen)
{
    migration *list = NULL;
    int n = list_migrations(dir, &list, err, errlen);
    if (n < 0)
        return -1;
    int latest = n ? list[n - 1].number : 0;
    free(list);
    return latest;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        if (size >= 0 && fseek(f, 0, SEEK_SET) == 0) {
            text = malloc((size_t)size + 1);
            if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
                free(text);
                text = NULL;
            } else if (text) {
                text[size] = '\0';
            }
        }
    }
    fclose(f);
    return text;
}

static int ok(PGresult *r, ExecStatusType want)
{
    int good = PQresultStatus(r) == want;
    PQclear(r);
    return good;
}

int migrate_current(PGconn *c)
{
    PGresult *r = PQexecParams(
        c, "SELECT coalesce(max(version), 0) FROM schema_migrations", 0, NULL,
        NULL, NULL, NULL, 0);
    int v = -1;
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
        v = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    return v;
}

srv_kind migrate_probe(db_pool *db, int *current)
{
    *current = -1;
    PGconn *c = db_acquire(db, PROBE_WAIT_MS);
    if (!c)
        return SRV_UNAVAILABLE;
    *current = migrate_current(c);
    db_release(db, c, *current < 0 && db_conn_broken(c));
    return *current < 0 ? SRV_UNAVAILABLE : SRV_OK;
}

int migrate_apply(PGconn *c, const char *dir, char *err, size_t errlen)
{
    migration *list = NULL;
    int n = list_migrations(dir, &list, err, errlen);
    if (n < 0)
        return -1;
    int applied = 0, locked = 0;
    if (!ok(PQexecParams(c, "SELECT pg_advisory_lock(" MIGRATION_LOCK_KEY ")",
                         0, NULL, NULL, NULL, NULL, 0),
            PGRES_TUPLES_OK)) {
        snprintf(err, errlen, "cannot take the migration lock: %s",
                 PQerrorMessage(c));
        goto fail;
    }
    locked = 1;
    if (!ok(PQexecParams(c,
                         "CREATE TABLE IF NOT EXISTS schema_migrations ("
                         " version integer PRIMARY KEY,"
                         " name text NOT NULL,"
                         " applied_at timestamptz NOT NULL DEFAULT now())",
                         0, NULL, NULL, NULL, NULL, 0),
            PGRES_COMMAND_OK)) {
        snprintf(err, errlen, "cannot create schema_migrations: %s",
                 PQerrorMessage(c));
        goto fail;
    }
    int current = migrate_current(c);
    if (current < 0) {
        snprintf(err, errlen, "cannot read schema_migrations: %s",
                 PQerrorMessage(c));
        goto fail;
    }
    for (int i = 0; i < n; i++) {
        if (list[i].number <= current)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, list[i].name);
        char *sql = read_file(path);
        if (!sql) {
            snprintf(err, errlen, "cannot read %s", path);
            goto fail;
        }
        char number[16];
        snprintf(number, sizeof number, "%d", list[i].number);
        const char *params[] = {number, list[i].name};
        int good = ok(PQexecParams(c, "BEGIN", 0, NULL, NULL, NULL, NULL, 0),
                      PGRES_COMMAND_OK);
        /* A migration file is several statements of constant SQL written by
         * us, never data, which only the simple query protocol can run. */
        good = good && ok(PQexec(c, sql), PGRES_COMMAND_OK);
        free(sql);
        good = good &&
               ok(PQexecParams(c,
                               "INSERT INTO schema_migrations (version, name) "
                               "VALUES ($1::integer, $2)",
                               2, NULL, params, NULL, NULL, 0),
                  PGRES_COMMAND_OK);
        good =
            good && ok(PQexecParams(c, "COMMIT", 0, NULL, NULL, NULL, NULL, 0),
                       PGRES_COMMAND_OK);
        if (!good) {
            snprintf(err, errlen, "migration %s failed: %s", list[i].name,
                     PQerrorMessage(c));
            PQclear(PQexecParams(c, "ROLLBACK", 0, NULL, NULL, NULL, NULL, 0));
            goto fail;
        }
        log_info("migration_applied", json_pack("{ss}", "name", list[i].name));
        applied++;
    }
    PQclear(PQexecParams(c, "SELECT pg_advisory_unlock(" MIGRATION_LOCK_KEY ")",
                         0, NULL, NULL, NULL, NULL, 0));
    free(list);
    return applied;
fail:
    if (locked)
        PQclear(
            PQexecParams(c, "SELECT pg_advisory_unlock(" MIGRATION_LOCK_KEY ")",
                         0, NULL, NULL, NULL, NULL, 0));
    free(list);
    return -1;
}
