/* oha.c - placeholder until the JSON parser lands (work in progress); the
 * CSV and SQLite parsers are in oha_csv.c and oha_sqlite.c. */
#include "common/compat.h"
#include "ingest/internal.h"

int
ingest_parse_oha_json(const char *buf, size_t len, struct parse_result *res)
{
	(void)buf;
	(void)len;
	return parse_reject(res, "parser not built yet");
}
