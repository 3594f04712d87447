/*
 * fuzz-spec.c - libFuzzer target: any bytes as a report spec, through
 * report_spec_load() (the loader reads a file, so each input is written
 * to one temporary file first).  Nothing may crash or leak; a refusal
 * prints its reason on stderr (run with -close_fd_mask=2 to hide them).
 * Seeds: tests/fuzz/corpus/spec/.
 */
#include "common/compat.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "report/internal.h"

/* The file is unlinked as soon as it is made and read back through
 * /proc/self/fd, so a run leaves nothing in $TMPDIR, even when it ends
 * in a crash (libFuzzer targets run on Linux). */
static char spec_path[64];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct report_spec spec;

	if (fd < 0) {
		const char *tmp = getenv("TMPDIR");
		char tmpl[4096];

		snprintf(tmpl, sizeof(tmpl), "%s/pathstat-fuzz-spec-XXXXXX",
		    tmp && *tmp ? tmp : "/tmp");
		fd = mkstemp(tmpl);
		if (fd < 0)
			abort();
		unlink(tmpl);
		snprintf(spec_path, sizeof(spec_path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	report_spec_load(spec_path, &spec);
	report_spec_release(&spec);
	return 0;
}
