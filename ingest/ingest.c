/* ingest.c - placeholder: cmd_ingest and cmd_runs come next. */
#include "common/compat.h"
#include "common/err.h"
#include "common/exit.h"
#include "ingest/ingest.h"

int
cmd_ingest(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	err_set_prefix("pathstat ingest");
	error("not built yet");
	return PATHSTAT_EXIT_FAIL;
}

int
cmd_runs(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	err_set_prefix("pathstat runs");
	error("not built yet");
	return PATHSTAT_EXIT_FAIL;
}
