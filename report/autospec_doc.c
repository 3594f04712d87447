/*
 * autospec_doc.c - the generated spec's JSON document: its sections and
 * charts as autospec.c and autospec_month.c make them, and the whole
 * printed as a person would write it (report_autospec_print): two-space
 * indents, short lists and objects on one line.
 */
#include "common/compat.h"

#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "common/escape.h"
#include "common/strbuf.h"
#include "report/autospec.h"
#include "report/internal.h"

cJSON *
autospec_section(cJSON *arr, const char *type, const char *id,
    const char *title, const char *text)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "type", type);
	if (id) {
		char *slug = report_slug(id, 40);

		cJSON_AddStringToObject(s, "id", slug);
		free(slug);
	}
	if (title)
		cJSON_AddStringToObject(s, "title", title);
	if (text && *text)
		cJSON_AddStringToObject(s, "text", text);
	cJSON_AddItemToArray(arr, s);
	return s;
}

void
autospec_chart(cJSON *sec, const char *kind, const char *stat,
    const char *title)
{
	cJSON *c = cJSON_AddObjectToObject(sec, "chart");

	cJSON_AddStringToObject(c, "kind", kind);
	if (stat)
		cJSON_AddStringToObject(c, "stat", stat);
	cJSON_AddStringToObject(c, "title", title);
}

static void print_value(const cJSON *v, size_t indent, struct strbuf *out);

static bool
is_container(const cJSON *v)
{
	return cJSON_IsObject(v) || cJSON_IsArray(v);
}

/* v on one line, when it holds no container and fits in width. */
static bool
print_inline(const cJSON *v, size_t width, struct strbuf *out)
{
	const cJSON *e;
	size_t start = out->len;
	bool obj = cJSON_IsObject(v);

	cJSON_ArrayForEach(e, v)
		if (is_container(e))
			return false;
	strbuf_addstr(out, obj ? "{ " : "[");
	cJSON_ArrayForEach(e, v) {
		if (e != v->child)
			strbuf_addstr(out, ", ");
		if (obj) {
			escape_json(out, e->string);
			strbuf_addstr(out, ": ");
		}
		print_value(e, 0, out);
	}
	strbuf_addstr(out, obj ? " }" : "]");
	if (!v->child) {
		strbuf_setlen(out, start);
		strbuf_addstr(out, obj ? "{}" : "[]");
	}
	if (out->len - start > width) {
		strbuf_setlen(out, start);
		return false;
	}
	return true;
}

static void
print_value(const cJSON *v, size_t indent, struct strbuf *out)
{
	const cJSON *e;
	bool obj = cJSON_IsObject(v);

	if (cJSON_IsString(v)) {
		escape_json(out, v->valuestring);
		return;
	}
	if (cJSON_IsNumber(v)) {
		strbuf_add_double(out, v->valuedouble);
		return;
	}
	if (!is_container(v)) {
		strbuf_addstr(out, cJSON_IsTrue(v) ? "true" : cJSON_IsFalse(v) ?
		    "false" : "null");
		return;
	}
	if (print_inline(v, indent < 72 ? 78 - indent : 8, out))
		return;
	strbuf_addstr(out, obj ? "{\n" : "[\n");
	cJSON_ArrayForEach(e, v) {
		strbuf_addf(out, "%*s", (int)(indent + 2), "");
		if (obj) {
			escape_json(out, e->string);
			strbuf_addstr(out, ": ");
		}
		print_value(e, indent + 2, out);
		strbuf_addstr(out, e->next ? ",\n" : "\n");
	}
	strbuf_addf(out, "%*s%c", (int)indent, "", obj ? '}' : ']');
}

void
report_autospec_print(const cJSON *doc, struct strbuf *out)
{
	print_value(doc, 0, out);
	strbuf_addch(out, '\n');
}

