/*
 * parseopt.c - the option layer (git's parse-options): parse a command
 * line against a command's option table, print its --help and usage
 * line from the same table, and list it for the bash completion.
 */
#include "common/compat.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/exit.h"
#include "common/parse.h"
#include "common/parseopt.h"
#include "common/strbuf.h"
#include "common/suggest.h"
#include "common/table.h"
#include "common/utf8.h"
#include "common/where.h"
#include "common/xalloc.h"

#define HELP_WIDTH	79	/* help lines end before this column */
#define HELP_COL_MAX	24	/* option text starts at most here */
#define PROSE_WIDTH	72	/* paragraphs (intro, outro) end before */

const char *const parseopt_formats[] = { "text", "md", "csv", "json", NULL };

void
parseopt_list_release(struct parseopt_list *l)
{
	free(l->items);
	l->items = NULL;
	l->n = l->alloc = 0;
}

int
parseopt_where(const struct parseopt *opt, const char *arg,
    struct strbuf *why)
{
	return where_add(opt->value, arg, why);
}

int
parseopt_format(const struct parseopt *opt, const char *arg,
    struct strbuf *why)
{
	if (table_format_parse(arg, opt->value)) {
		strbuf_addstr(why, "want text, md, csv or json");
		return -1;
	}
	return 0;
}

static bool
takes_arg(const struct parseopt *o)
{
	if (o->kind == PARSEOPT_FLAG)
		return false;
	if (o->kind == PARSEOPT_CALLBACK && (o->flags & PARSEOPT_NOARG))
		return false;
	return true;
}

/* "a, b or c" */
static void
add_choices(struct strbuf *sb, const char *const *c, const char *sep,
    const char *last)
{
	size_t i;

	for (i = 0; c[i]; i++)
		strbuf_addf(sb, "%s%s", i == 0 ? "" : c[i + 1] ? sep : last,
		    c[i]);
}

/* The argument's name in help and the usage line: argh, or for an
 * enum its choices. */
static void
add_argh(struct strbuf *sb, const struct parseopt *o)
{
	if (o->argh)
		strbuf_addstr(sb, o->argh);
	else if (o->choices)
		add_choices(sb, o->choices, "|", "|");
	else
		strbuf_addstr(sb, "VALUE");
}

/* "--db" or "-q" as the user names the option. */
static void
add_name(struct strbuf *sb, const struct parseopt *o)
{
	if (o->name)
		strbuf_addf(sb, "--%s", o->name);
	else
		strbuf_addf(sb, "-%c", o->short_name);
}

/* The options that exist, for an unknown one: "--db, --where, ...". */
static void
add_option_names(struct strbuf *sb, const struct parseopt *opts)
{
	const struct parseopt *o;
	bool first = true;

	for (o = opts; o->kind != PARSEOPT_END; o++) {
		if (o->flags & PARSEOPT_HIDDEN)
			continue;
		strbuf_addstr(sb, first ? "" : ", ");
		add_name(sb, o);
		first = false;
	}
	strbuf_addf(sb, "%s--help", first ? "" : ", ");
}

static void
add_number(struct strbuf *sb, double v)
{
	strbuf_addf(sb, "%.15g", v);
}

/*
 * Check arg and store it where o says; -1 with the whole message (after
 * the prefix) in msg.
 */
static int
apply(const struct parseopt *o, const char *arg, struct strbuf *msg)
{
	struct strbuf why = STRBUF_INIT;
	struct parseopt_list *l;
	double d;
	long n;
	size_t i;
	int ret = 0;

	switch (o->kind) {
	case PARSEOPT_FLAG:
		*(bool *)o->value = true;
		break;
	case PARSEOPT_STRING:
		*(const char **)o->value = arg;
		break;
	case PARSEOPT_INT:
		if (parse_long(arg, (long)o->min, (long)o->max, &n)) {
			strbuf_addstr(&why, "want a whole number from ");
			add_number(&why, o->min);
			strbuf_addstr(&why, " to ");
			add_number(&why, o->max);
			ret = -1;
			break;
		}
		*(long *)o->value = n;
		break;
	case PARSEOPT_DOUBLE:
		if (parse_double(arg, o->min, o->max, &d)) {
			strbuf_addstr(&why, "want a number from ");
			add_number(&why, o->min);
			strbuf_addstr(&why, " to ");
			add_number(&why, o->max);
			ret = -1;
			break;
		}
		*(double *)o->value = d;
		break;
	case PARSEOPT_LIST:
		l = o->value;
		ALLOC_GROW(l->items, l->n + 1, l->alloc);
		l->items[l->n++] = arg;
		break;
	case PARSEOPT_ENUM:
		if (o->cb) {
			/* the callback may take aliases the help leaves out */
			if (o->cb(o, arg, &why)) {
				strbuf_reset(&why);
				ret = -1;
			}
		} else {
			for (i = 0; o->choices[i]; i++)
				if (!strcmp(arg, o->choices[i]))
					break;
			if (o->choices[i])
				*(int *)o->value = (int)i;
			else
				ret = -1;
		}
		if (ret) {
			strbuf_addstr(&why, "want ");
			add_choices(&why, o->choices, ", ", " or ");
		}
		break;
	case PARSEOPT_CALLBACK:
		ret = o->cb(o, arg, &why);
		break;
	case PARSEOPT_END:
		BUG("apply: the table's end");
	}
	if (ret) {
		strbuf_addstr(msg, "bad ");
		add_name(msg, o);
		if (arg && !(o->flags & PARSEOPT_WHY_ONLY)) {
			/* shown, not applied: a control in it (a
			 * right-to-left override) would act on the message */
			strbuf_addstr(msg, " '");
			if (utf8_valid(arg) && !utf8_first_control(arg))
				strbuf_addstr(msg, arg);
			else
				utf8_add_escaped(msg, arg);
			strbuf_addch(msg, '\'');
		}
		strbuf_addf(msg, ": %s", why.buf);
	}
	strbuf_release(&why);
	return ret;
}

static const struct parseopt *
find_long(const struct parseopt *opts, const char *name, size_t len)
{
	const struct parseopt *o;

	for (o = opts; o->kind != PARSEOPT_END; o++)
		if (o->name && strlen(o->name) == len &&
		    !strncmp(o->name, name, len))
			return o;
	return NULL;
}

static const struct parseopt *
find_short(const struct parseopt *opts, char c)
{
	const struct parseopt *o;

	for (o = opts; o->kind != PARSEOPT_END; o++)
		if (o->short_name && o->short_name == c)
			return o;
	return NULL;
}

/* "unknown option 'X'; did you mean '--Y'? (options: ...)" */
static void
unknown_option(const struct parseopt *opts, const char *typed,
    struct strbuf *msg)
{
	const char **names = NULL;
	const char *best;
	size_t n = 0, alloc = 0;
	const struct parseopt *o;

	strbuf_addf(msg, "unknown option '%s'", typed);
	for (o = opts; o->kind != PARSEOPT_END; o++) {
		if (!o->name || (o->flags & PARSEOPT_HIDDEN))
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = o->name;
	}
	while (*typed == '-')
		typed++;
	best = *typed ? suggest_best(typed, names, n) : NULL;
	if (best)
		strbuf_addf(msg, "; did you mean '--%s'?", best);
	strbuf_addstr(msg, " (options: ");
	add_option_names(msg, opts);
	strbuf_addch(msg, ')');
	free(names);
}

/*
 * One word of argv that starts with '-': a long option (with its value
 * as "=V" or the next word) or a cluster of short ones.  Returns how
 * many words it used (1 or 2), 0 for --help, -1 for --list-options, or
 * -2 with the error in msg.
 */
static int
parse_word(const struct parseopt_cmd *cmd, int argc, char **argv, int i,
    struct strbuf *msg)
{
	const struct parseopt *o;
	const char *w = argv[i], *eq, *arg;
	int used = 1;

	if (w[1] == '-') {
		eq = strchr(w + 2, '=');
		if (!strcmp(w, "--help"))
			return 0;
		if (!strcmp(w, "--list-options"))
			return -1;
		o = find_long(cmd->opts, w + 2,
		    eq ? (size_t)(eq - (w + 2)) : strlen(w + 2));
		if (!o) {
			struct strbuf typed = STRBUF_INIT;

			strbuf_add(&typed, w,
			    eq ? (size_t)(eq - w) : strlen(w));
			unknown_option(cmd->opts, typed.buf, msg);
			strbuf_release(&typed);
			return -2;
		}
		if (!takes_arg(o)) {
			if (eq) {
				strbuf_addf(msg, "option '--%s' takes no value",
				    o->name);
				return -2;
			}
			arg = NULL;
		} else if (eq) {
			arg = eq + 1;
		} else if (i + 1 < argc) {
			arg = argv[i + 1];
			used = 2;
		} else {
			strbuf_addf(msg, "option '--%s' needs a value (",
			    o->name);
			add_argh(msg, o);
			strbuf_addch(msg, ')');
			return -2;
		}
		return apply(o, arg, msg) ? -2 : used;
	}
	for (w++; *w; w++) {
		if (*w == 'h')
			return 0;
		o = find_short(cmd->opts, *w);
		if (!o) {
			struct strbuf typed = STRBUF_INIT;

			strbuf_addf(&typed, "-%c", *w);
			unknown_option(cmd->opts, typed.buf, msg);
			strbuf_release(&typed);
			return -2;
		}
		if (!takes_arg(o)) {
			if (apply(o, NULL, msg))
				return -2;
			continue;
		}
		if (w[1]) {
			arg = w + 1;
		} else if (i + 1 < argc) {
			arg = argv[i + 1];
			used = 2;
		} else {
			strbuf_addf(msg, "option '-%c' needs a value", *w);
			return -2;
		}
		return apply(o, arg, msg) ? -2 : used;
	}
	return used;
}

enum parseopt_result
parseopt(const struct parseopt_cmd *cmd, int argc, char **argv, int *nargs)
{
	struct strbuf msg = STRBUF_INIT;
	enum parseopt_result ret = PARSEOPT_OK;
	bool only_args = false, dashdash = false, posix;
	int i, n = 0, used;

	posix = !(cmd->flags & PARSEOPT_STOP_AT_NON_OPTION) &&
	    getenv("POSIXLY_CORRECT");
	for (i = 1; i < argc; i += used) {
		const char *w = argv[i];

		used = 1;
		if (!dashdash && !strcmp(w, "--")) {
			only_args = dashdash = true;
			continue;
		}
		if (posix && n && !dashdash && w[0] == '-' && w[1]) {
			/* getopt without permuting would take it for an
			 * argument: say where options go instead */
			const char *what = cmd->args_name ? cmd->args_name :
			    "arguments";

			strbuf_addf(&msg, "'%s' after the %s: give options "
			    "before them (a %.*s named so goes after '--')", w,
			    what, (int)(strlen(what) - 1), what);
			goto fail;
		}
		if (only_args || w[0] != '-' || !w[1]) {
			if (!cmd->args) {
				strbuf_addf(&msg, "unexpected argument '%s'",
				    w);
				goto fail;
			}
			argv[n++] = argv[i];
			if (cmd->flags & PARSEOPT_STOP_AT_NON_OPTION)
				only_args = true;
			continue;
		}
		used = parse_word(cmd, argc, argv, i, &msg);
		if (used == 0) {
			if (cmd->help)
				cmd->help(stdout);
			else
				parseopt_help(cmd, stdout);
			ret = PARSEOPT_HELP;
			goto cleanup;
		}
		if (used == -1) {
			parseopt_list_options(cmd->opts, stdout);
			ret = PARSEOPT_HELP;
			goto cleanup;
		}
		if (used < 0)
			goto fail;
	}
	*nargs = n;
	goto cleanup;
fail:
	error("%s; see 'pathstat %s --help'", msg.buf, cmd->name);
	ret = PARSEOPT_ERROR;
cleanup:
	strbuf_release(&msg);
	return ret;
}

int
parseopt_exit(enum parseopt_result r)
{
	return r == PARSEOPT_ERROR ? PATHSTAT_EXIT_USAGE : PATHSTAT_EXIT_OK;
}

int
parseopt_usage_error(const struct parseopt_cmd *cmd, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	error("%s; see 'pathstat %s --help'", buf, cmd->name);
	return PATHSTAT_EXIT_USAGE;
}

/*
 * Append text word-wrapped so no line passes width, continuation
 * lines indented to col; the first line starts at column *at.  "\n" in
 * text forces a break.
 */
static void
wrap(struct strbuf *sb, const char *text, size_t col, size_t at,
    size_t width)
{
	const char *p = text;
	size_t spaces = 0;

	while (*p) {
		size_t len = strcspn(p, " \n");

		if (at > col && at + spaces + len > width) {
			strbuf_addf(sb, "\n%*s", (int)col, "");
			at = col;
		} else if (at > col) {
			/* two spaces after a sentence stay two */
			strbuf_addf(sb, "%*s", (int)spaces, "");
			at += spaces;
		}
		strbuf_add(sb, p, len);
		at += len;
		p += len;
		spaces = 0;
		if (*p == '\n') {
			strbuf_addf(sb, "\n%*s", (int)col, "");
			at = col;
			p++;
		} else {
			while (*p == ' ') {
				spaces++;
				p++;
			}
		}
	}
}

/* "[--db FILE]", "[--where KEY=VALUE]...", "[-q | --quiet]"; a
 * required one "--metric M" */
static void
usage_item(struct strbuf *sb, const struct parseopt *o, bool req)
{
	if (!req)
		strbuf_addch(sb, '[');
	if (o->short_name && o->name)
		strbuf_addf(sb, "-%c | ", o->short_name);
	add_name(sb, o);
	if (takes_arg(o)) {
		strbuf_addch(sb, ' ');
		add_argh(sb, o);
	}
	if (!req)
		strbuf_addch(sb, ']');
	if (o->kind == PARSEOPT_LIST || (o->flags & PARSEOPT_MANY))
		strbuf_addstr(sb, "...");
}

/*
 * What form (a parseopt_cmd forms[] entry, or NULL: the flags alone)
 * makes of o: '+' required, '-' left out, else ' ' (optional, or
 * required by PARSEOPT_REQUIRED).
 */
static char
form_role(const char *form, const struct parseopt *o)
{
	const char *p = form;
	size_t len;

	if (o->name)
		for (len = strlen(o->name); p && (p = strstr(p, o->name)); p++)
			if (p > form && (p[-1] == '+' || p[-1] == '-') &&
			    (p[len] == ' ' || !p[len]) &&
			    (p - 1 == form || p[-2] == ' '))
				return p[-1];
	return (o->flags & PARSEOPT_REQUIRED) ? '+' : ' ';
}

/* One usage line: the form's required options, then its optional ones,
 * each in table order, wrapped under the first. */
static void
usage_form(const struct parseopt_cmd *cmd, const char *form, bool first,
    struct strbuf *sb)
{
	struct strbuf item = STRBUF_INIT;
	const struct parseopt *o;
	size_t start = sb->len, col, at;
	int pass;

	strbuf_addf(sb, "%s pathstat %s", first ? "usage:" : "   or:",
	    cmd->name);
	col = at = sb->len - start + 1;
	for (pass = 0; pass < 2; pass++) {
		for (o = cmd->opts; o->kind != PARSEOPT_END; o++) {
			char role = form_role(form, o);

			if ((o->flags & PARSEOPT_HIDDEN) || role == '-' ||
			    (role == '+') != (pass == 0))
				continue;
			strbuf_reset(&item);
			usage_item(&item, o, role == '+');
			if (at + 1 + item.len > HELP_WIDTH && at > col) {
				strbuf_addf(sb, "\n%*s", (int)col, "");
				at = col;
			} else {
				strbuf_addch(sb, ' ');
				at++;
			}
			strbuf_add(sb, item.buf, item.len);
			at += item.len;
		}
	}
	if (cmd->args) {
		if (at + 1 + strlen(cmd->args) > HELP_WIDTH)
			strbuf_addf(sb, "\n%*s", (int)col, "");
		else
			strbuf_addch(sb, ' ');
		strbuf_addstr(sb, cmd->args);
	}
	strbuf_addch(sb, '\n');
	strbuf_release(&item);
}

void
parseopt_usage(const struct parseopt_cmd *cmd, struct strbuf *sb)
{
	size_t i;

	if (!cmd->forms) {
		usage_form(cmd, NULL, true, sb);
		return;
	}
	for (i = 0; cmd->forms[i]; i++)
		usage_form(cmd, cmd->forms[i], i == 0, sb);
}

/* "-q, --quiet", "--db FILE" */
static void
help_head(struct strbuf *sb, const struct parseopt *o)
{
	if (o->short_name && o->name)
		strbuf_addf(sb, "-%c, ", o->short_name);
	add_name(sb, o);
	if (takes_arg(o)) {
		strbuf_addch(sb, ' ');
		add_argh(sb, o);
	}
}

void
parseopt_help_options(const struct parseopt *opts, struct strbuf *sb)
{
	struct strbuf head = STRBUF_INIT;
	const struct parseopt *o;
	size_t col = 2 + strlen("-h, --help") + 2;

	for (o = opts; o->kind != PARSEOPT_END; o++) {
		if (o->flags & PARSEOPT_HIDDEN)
			continue;
		strbuf_reset(&head);
		help_head(&head, o);
		if (2 + head.len + 2 > col)
			col = 2 + head.len + 2;
	}
	if (col > HELP_COL_MAX)
		col = HELP_COL_MAX;
	for (o = opts; o->kind != PARSEOPT_END; o++) {
		if (o->flags & PARSEOPT_HIDDEN)
			continue;
		strbuf_reset(&head);
		help_head(&head, o);
		strbuf_addf(sb, "  %s", head.buf);
		if (2 + head.len + 2 > col)
			strbuf_addf(sb, "\n%*s", (int)col, "");
		else
			strbuf_addf(sb, "%*s", (int)(col - 2 - head.len), "");
		wrap(sb, o->help ? o->help : "", col, col, HELP_WIDTH);
		strbuf_addch(sb, '\n');
	}
	strbuf_addf(sb, "  %-*s", (int)(col - 2), "-h, --help");
	wrap(sb, "this help", col, col, HELP_WIDTH);
	strbuf_addch(sb, '\n');
	strbuf_release(&head);
}

void
parseopt_help(const struct parseopt_cmd *cmd, FILE *fp)
{
	struct strbuf sb = STRBUF_INIT;

	parseopt_usage(cmd, &sb);
	if (cmd->intro) {
		strbuf_addch(&sb, '\n');
		wrap(&sb, cmd->intro, 0, 0, PROSE_WIDTH);
		strbuf_addch(&sb, '\n');
	}
	fputs(sb.buf, fp);
	strbuf_reset(&sb);
	if (cmd->extra) {
		fputc('\n', fp);
		cmd->extra(fp);
	}
	strbuf_addch(&sb, '\n');
	parseopt_help_options(cmd->opts, &sb);
	if (cmd->outro) {
		strbuf_addch(&sb, '\n');
		wrap(&sb, cmd->outro, 0, 0, PROSE_WIDTH);
		strbuf_addch(&sb, '\n');
	}
	fputs(sb.buf, fp);
	strbuf_release(&sb);
}

void
parseopt_list_options(const struct parseopt *opts, FILE *fp)
{
	const struct parseopt *o;

	for (o = opts; o->kind != PARSEOPT_END; o++) {
		struct strbuf sb = STRBUF_INIT;

		if (o->flags & PARSEOPT_HIDDEN)
			continue;
		if (takes_arg(o)) {
			strbuf_addch(&sb, '=');
			if (o->choices)
				add_choices(&sb, o->choices, "|", "|");
		}
		if (o->name)
			fprintf(fp, "--%s%s\n", o->name, sb.buf);
		if (o->short_name)
			fprintf(fp, "-%c%s\n", o->short_name, sb.buf);
		strbuf_release(&sb);
	}
	fputs("--help\n-h\n", fp);
}
