/* iperf3.c - placeholder until the parser lands (work in progress). */
#include "common/compat.h"
#include "ingest/internal.h"

int
ingest_parse_iperf3(const char *buf, size_t len, struct parse_result *res)
{
	(void)buf;
	(void)len;
	return parse_reject(res, "parser not built yet");
}
