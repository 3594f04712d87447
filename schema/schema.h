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
	/* NULL, or a query whose first column is 1 when the database has
	 * this migration's result already (a "-- skip-if: " line in the
	 * file): the statements are then not run again.  For a migration
	 * that cannot be written to run twice (a table that becomes a
	 * view). */
	const char	*skip_if;
};

extern const struct schema_migration schema_migrations[];
extern const size_t schema_nmigrations;

#endif
