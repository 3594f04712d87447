/*
 * spec.h - what the two files of the spec reader share: JSON locations
 * and typed getters that report "FILE: LOCATION: what" (spec.c), the
 * query keys a group passes down (spec.c), and the sections themselves
 * (spec_section.c).  Private to report/.
 */
#ifndef PATHSTAT_REPORT_SPEC_H
#define PATHSTAT_REPORT_SPEC_H

#include "common/compat.h"

#include <cJSON.h>

#include "common/strbuf.h"
#include "report/internal.h"

/* "parent.key" or "parent[i]" (caller frees). */
char *spec_loc_key(const char *parent, const char *key);
char *spec_loc_index(const char *parent, size_t i);
/* Is s one of list[0..n)? */
bool spec_in_list(const char *s, const char *const *list, size_t n);
/* Append list[0..n) to sb, ", "-separated. */
void spec_join_list(struct strbuf *sb, const char *const *list, size_t n);
/* Reject keys outside allowed and keys given twice. */
int spec_check_keys(const struct report_spec *spec, const cJSON *obj,
    const char *loc, const char *const *allowed, size_t nallowed);
/* Is s valid UTF-8 without control characters (utf8_is_control(): C0,
 * DEL, C1, bidirectional) other than line breaks and tabs (which
 * paragraphs may hold)? */
bool spec_text_ok(const char *s);
#define SPEC_FAULT_MAX	128
/* Why s is not spec text, written into buf (SPEC_FAULT_MAX bytes, the
 * caller's) and returned; NULL when it is. */
const char *spec_text_fault(const char *s, char *buf);
/* A string member (NULL *out when absent and not required). */
int spec_get_string(const struct report_spec *spec, const cJSON *obj,
    const char *key, const char *loc, bool required, char **out);
/* A boolean, a number within [min, max] (an integer when asked): *out
 * is left alone when the key is absent; -1 after naming what it wants. */
int spec_get_bool(const struct report_spec *spec, const cJSON *obj,
    const char *key, const char *loc, bool *out);
int spec_get_number(const struct report_spec *spec, const cJSON *obj,
    const char *key, const char *loc, double min, double max, bool integer,
    double *out);
/* Set key to value in a list of key/value pairs (replacing its value,
 * else appending). */
void spec_kv_set(struct report_kv **kv, size_t *n, const char *key,
    const char *value);
/* Free the pairs and the array. */
void spec_kv_release(struct report_kv *kv, size_t n);
/* Is key one a section passes down to the sections it holds? */
bool spec_inherited_key(const char *key);
/* Start child with what it inherits from parent. */
void spec_inherit(struct report_section *child,
    const struct report_section *parent);
/* Free the paths and the array. */
void spec_paths_release(struct report_path *p, size_t n);
/* The analyze options obj sets: the inherited ones, or the section's
 * own (which spec_section.c has let through). */
int spec_parse_options(const struct report_spec *spec, const cJSON *obj,
    const char *loc, bool inherited, struct report_section *s);
/* The inheritable keys of obj, applied over what s inherited. */
int spec_parse_inherited(const struct report_spec *spec, const cJSON *obj,
    const char *loc, struct report_section *s);
/* The sections of a group: arr must be a list; each is parsed with what
 * parent passes down.  Returns 0 or -1 after printing. */
int spec_parse_sections(struct report_spec *spec, const cJSON *arr,
    const char *loc, struct report_section *parent);
/* Free a section and the sections it holds. */
void spec_section_release(struct report_section *s);

#endif
