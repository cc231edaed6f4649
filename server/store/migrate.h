/*
 * migrate.h - numbered SQL migrations (sql/NNN_name.sql), each applied
 * exactly once, in order, in its own transaction, recorded in
 * schema_migrations. A session advisory lock serialises processes that
 * start at the same time, so two never apply the same migration.
 */
#ifndef CONCLAVE_MIGRATE_H
#define CONCLAVE_MIGRATE_H

#include "common/errors.h"
#include "server/store/db.h"

#include <libpq-fe.h>
#include <stddef.h>

/* The highest migration number found in dir, or -1 with err filled. */
int migrate_latest(const char *dir, char *err, size_t errlen);
/* Apply what is missing. Returns the number applied (>= 0), or -1 with err. */
int migrate_apply(PGconn *c, const char *dir, char *err, size_t errlen);
/* The highest applied migration number, 0 if none, -1 if unknown. */
int migrate_current(PGconn *c);
/* migrate_current on a connection of db, waiting at most a second for one
 * (the readiness probe): SRV_OK with *current set, or SRV_UNAVAILABLE (no
 * connection, or the number could not be read) with *current -1. */
srv_kind migrate_probe(db_pool *db, int *current);

#endif
