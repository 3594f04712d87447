/*
 * fuzz-layout.c - libFuzzer target for the key grammars: the input is
 * split at its first NUL (or newline) into a layout pattern and a path;
 * the pattern is compiled and matched against the path, and the path
 * text is also read as a condition ({cond} grammar).  Nothing may
 * crash, leak or take exponential time.  Seeds: tests/fuzz/corpus/layout/.
 */
#include "common/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/kv.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "ingest/tree.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	const char *sep = memchr(s, '\n', size);
	char *pattern, *path;
	struct layout *lay;
	struct strbuf why = STRBUF_INIT;
	struct kvset cond = KVSET_INIT;
	struct run_keys keys;

	if (size > 4096)
		return 0;
	if (!sep)
		sep = s + size;
	pattern = xstrndup(s, (size_t)(sep - s));
	path = sep < s + size ? xstrndup(sep + 1, (size_t)(s + size - sep - 1)) :
	    xstrdup("");
	run_keys_init(&keys);
	lay = layout_compile(pattern, &why);
	if (lay) {
		strbuf_reset(&why);
		layout_match(lay, path, &keys, &why);
		layout_free(lay);
	} else if (!why.len) {
		abort();
	}
	strbuf_reset(&why);
	cond_parse(path, &cond, &why);
	kvset_release(&cond);
	run_keys_release(&keys);
	strbuf_release(&why);
	free(pattern);
	free(path);
	return 0;
}
