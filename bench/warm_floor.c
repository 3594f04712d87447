/*
 * warm_floor.c - the floor of analyze's warm path (bench/run.sh's
 * "warm ÷ floor" row): the time of merely reading the stored sorted
 * values `analyze percentiles --metric M` reads, the sample_values blob
 * of each of M's runs, and nothing else (no cells, no statistics).
 * Not part of pathstat: the bench builds it next to its work files.
 *
 *   warm_floor DB METRIC
 *
 * Prints "METRIC values N, first F, last L" (N values read; the first
 * blob's first value, the last blob's last); exits 1 on an error.  It
 * takes each blob as SQLite hands it over (sqlite3_column_blob(): a
 * blob beyond a page is copied out of its overflow pages) and touches
 * no more of it, the least any reader of the blobs pays.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

int
main(int argc, char **argv)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	uint64_t nvalues = 0;
	double first = 0, last = 0;
	int rc, ret = 1;

	if (argc != 3) {
		fputs("usage: warm_floor DB METRIC\n", stderr);
		return 2;
	}
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK)
		goto cleanup;
	/* analyze's runs of M are those with samples of M (common/runsel.c):
	 * exactly the runs that have M's sorted copy, read in run order */
	rc = sqlite3_prepare_v2(db, "SELECT v.sorted FROM sample_values v "
	    "JOIN metrics m ON m.id = v.metric WHERE m.name = ?1 "
	    "ORDER BY v.run_id", -1, &st, NULL);
	if (rc != SQLITE_OK)
		goto cleanup;
	sqlite3_bind_text(st, 1, argv[2], -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *p = sqlite3_column_blob(st, 0);
		size_t n = (size_t)sqlite3_column_bytes(st, 0) / sizeof(double);

		if (!n)
			continue;
		if (!nvalues)
			memcpy(&first, p, sizeof(first));
		memcpy(&last, p + (n - 1) * sizeof(double), sizeof(last));
		nvalues += n;
	}
	if (rc != SQLITE_DONE)
		goto cleanup;
	printf("%s values %llu, first %.17g, last %.17g\n", argv[2],
	    (unsigned long long)nvalues, first, last);
	ret = 0;
cleanup:
	if (ret)
		fprintf(stderr, "warm_floor: %s: %s\n", argv[1],
		    db ? sqlite3_errmsg(db) : "cannot open");
	sqlite3_finalize(st);
	sqlite3_close(db);
	return ret;
}
