/* oha.c - placeholder until the JSON and SQLite parsers land (work in
 * progress); the CSV parser is in oha_csv.c. */
#include "common/compat.h"
#include "ingest/internal.h"

int
ingest_parse_oha_json(const char *buf, size_t len, struct parse_result *res)
{
	(void)buf;
	(void)len;
	return parse_reject(res, "parser not built yet");
}

int
ingest_parse_oha_sqlite(const char *buf, size_t len, struct parse_result *res)
{
	(void)buf;
	(void)len;
	return parse_reject(res, "parser not built yet");
}
