/*
 * fuzz-meta.c - libFuzzer target: any bytes as a meta.json sidecar,
 * through meta_parse(), and the resulting keys through the canonical
 * form; nothing may crash or leak, and keys that come out must be
 * valid.  Seeds: tests/fuzz/corpus/meta/.
 */
#include "common/compat.h"

#include <stdint.h>
#include <stdlib.h>

#include "common/strbuf.h"
#include "ingest/tree.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_keys keys;
	struct strbuf why = STRBUF_INIT, canon = STRBUF_INIT;
	size_t i;

	run_keys_init(&keys);
	if (meta_parse((const char *)data, size, &keys, &why) == 0) {
		run_keys_canon(&keys, &canon);
		for (i = 0; i < keys.cond.n; i++)
			if (!kv_valid_key(keys.cond.items[i].key) ||
			    !kv_valid_value(keys.cond.items[i].value))
				abort();
	} else if (!why.len) {
		abort();	/* a refusal always says why */
	}
	run_keys_release(&keys);
	strbuf_release(&why);
	strbuf_release(&canon);
	return 0;
}
