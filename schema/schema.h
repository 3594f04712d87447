/*
 * schema.h - the SQLite schema compiled into the binary: one migration
 * per schema/NNN-*.sql file, applied in order by common/db.c, the
 * database's PRAGMA user_version recording the last one applied.
 */
#ifndef PATHSTAT_SCHEMA_SCHEMA_H
#define PATHSTAT_SCHEMA_SCHEMA_H

#include "common/compat.h"

struct schema_migration {
	int		version;	/* user_version after this migration */
	const char	*name;		/* source file name, for messages */
	const char	*sql;		/* statements, run in one transaction */
};

extern const struct schema_migration schema_migrations[];
extern const size_t schema_nmigrations;

#endif
