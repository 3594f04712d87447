/*
 * t-parseopt.c - unit tests for common/parseopt.c: every kind of option
 * (flag, string, int and double with their ranges, repeatable list,
 * enum, callback), --name=value and --name value, short clusters, "--",
 * positional arguments kept in order, and the usage errors (unknown
 * option, bad enum value, number out of range, missing value, value to
 * a flag, argument to a command that takes none).
 */
#include "common/compat.h"

#include <stdio.h>
#include <string.h>

#include "common/err.h"
#include "common/parseopt.h"
#include "common/strbuf.h"
#include "tests/unit/harness.h"

struct vals {
	bool			quiet, dry;
	const char		*db;
	long			n;
	double			level;
	struct parseopt_list	tags;
	int			mode;
	const char		*cb_arg;
};

static const char *const modes[] = { "fast", "slow", NULL };

static int
cb_even(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	if (strlen(arg) % 2) {
		strbuf_addstr(why, "want an even length");
		return -1;
	}
	*(const char **)opt->value = arg;
	return 0;
}

/*
 * Parse the words of line (blank-separated, at most 30) against the test
 * table, args as the command's positional synopsis; the error line, if
 * any, goes to msg.
 */
static enum parseopt_result
run(struct vals *v, const char *args, const char *line, int *nargs,
    char **argv, struct strbuf *msg)
{
	const struct parseopt opts[] = {
		OPT_FLAG('q', "quiet", &v->quiet, "say less"),
		OPT_FLAG('n', "dry-run", &v->dry, "change nothing"),
		OPT_STRING(0, "db", &v->db, "FILE", "database"),
		OPT_INT(0, "count", &v->n, "N", 1, 100, "how many"),
		OPT_DOUBLE(0, "level", &v->level, "L", 0.5, 0.999, "level"),
		OPT_LIST('t', "tag", &v->tags, "K=V", "a tag"),
		OPT_ENUM(0, "mode", &v->mode, modes, "how"),
		OPT_CALLBACK(0, "even", &v->cb_arg, "S", cb_even, 0, "even"),
		OPT_END(),
	};
	const struct parseopt_cmd cmd = { .name = "demo", .args = args,
	    .opts = opts, .args_name = "files" };
	static char buf[512];
	struct err_capture cap = ERR_CAPTURE_INIT;
	enum parseopt_result r;
	int argc = 0;
	char *p;

	memset(v, 0, sizeof(*v));
	snprintf(buf, sizeof(buf), "%s", line);
	argv[argc++] = (char *)"demo";
	for (p = buf; *p && argc < 31; ) {
		argv[argc++] = p;
		p += strcspn(p, " ");
		if (*p)
			*p++ = '\0';
	}
	argv[argc] = NULL;
	*nargs = -1;
	err_capture_begin(&cap);
	r = parseopt(&cmd, argc, argv, nargs);
	err_capture_end();
	strbuf_reset(msg);
	strbuf_addstr(msg, cap.text.buf);
	strbuf_release(&cap.text);
	return r;
}

static void
test_kinds(void)
{
	struct strbuf msg = STRBUF_INIT;
	struct vals v;
	char *argv[32];
	int n;

	CHECK_EQ_INT(run(&v, "FILE...", "-q --db x.db --count 7 --level=0.9 "
	    "a -t k=1 --tag k=2 --mode slow --even ab -- -b", &n, argv, &msg),
	    PARSEOPT_OK, "every kind parses");
	CHECK(v.quiet && !v.dry, "flag set, the other not");
	CHECK_EQ_STR(v.db, "x.db", "string");
	CHECK_EQ_INT(v.n, 7, "int");
	CHECK_NEAR(v.level, 0.9, 1e-12, "double given as --level=0.9");
	CHECK_EQ_INT(v.tags.n, 2, "list: both");
	CHECK_EQ_STR(v.tags.items[1], "k=2", "list: in order");
	CHECK_EQ_INT(v.mode, 1, "enum: index of slow");
	CHECK_EQ_STR(v.cb_arg, "ab", "callback stored");
	CHECK_EQ_INT(n, 2, "two positional arguments");
	CHECK_EQ_STR(argv[0], "a", "the first, moved to argv[0]");
	CHECK_EQ_STR(argv[1], "-b", "after --, an option-like argument");
	CHECK_EQ_STR(msg.buf, "", "no message");
	parseopt_list_release(&v.tags);

	CHECK_EQ_INT(run(&v, "FILE...", "-nqtk=3 f", &n, argv, &msg),
	    PARSEOPT_OK, "a short cluster, a short value attached");
	CHECK(v.quiet && v.dry, "-nq: both flags");
	CHECK_EQ_STR(v.tags.n == 1 ? v.tags.items[0] : "", "k=3", "-tk=3");
	parseopt_list_release(&v.tags);
	strbuf_release(&msg);
}

/* line is refused with one line holding each of want[] */
static void
refused(const char *args, const char *line, const char *const *want,
    const char *what)
{
	struct strbuf msg = STRBUF_INIT;
	struct vals v;
	char *argv[32];
	int n;
	size_t i;

	CHECK_EQ_INT(run(&v, args, line, &n, argv, &msg), PARSEOPT_ERROR,
	    what);
	CHECK(msg.len && strchr(msg.buf, '\n') == msg.buf + msg.len - 1,
	    "... in one line");
	for (i = 0; want[i]; i++) {
		CHECK(strstr(msg.buf, want[i]) != NULL, want[i]);
		if (!strstr(msg.buf, want[i]))
			fprintf(stderr, "# message: %s", msg.buf);
	}
	parseopt_list_release(&v.tags);
	strbuf_release(&msg);
}

static void
test_errors(void)
{
	static const char *const unknown[] = { "unknown option '--cont'",
	    "did you mean '--count'?", "(options: --quiet, --dry-run, --db, "
	    "--count, --level, --tag, --mode, --even, --help)",
	    "see 'pathstat demo --help'", NULL };
	static const char *const mode[] = { "bad --mode 'medium': want fast "
	    "or slow", NULL };
	static const char *const count[] = { "bad --count '0': want a whole "
	    "number from 1 to 100", NULL };
	static const char *const level[] = { "bad --level '1': want a number "
	    "from 0.5 to 0.999", NULL };
	static const char *const word[] = { "bad --count 'ten'", NULL };
	static const char *const missing[] = { "option '--db' needs a value "
	    "(FILE)", NULL };
	static const char *const flagval[] = { "option '--quiet' takes no "
	    "value", NULL };
	static const char *const arg[] = { "unexpected argument 'x'", NULL };
	static const char *const shrt[] = { "unknown option '-x'", NULL };
	static const char *const cb[] = { "bad --even 'abc': want an even "
	    "length", NULL };

	refused(NULL, "--cont 3", unknown, "unknown option");
	refused(NULL, "--mode medium", mode, "bad enum value");
	refused(NULL, "--count 0", count, "int below its range");
	refused(NULL, "--level 1", level, "double above its range");
	refused(NULL, "--count ten", word, "int that is no number");
	refused(NULL, "--db", missing, "missing value");
	refused(NULL, "--quiet=yes", flagval, "a value to a flag");
	refused(NULL, "x", arg, "an argument to a command that takes none");
	refused("F...", "-qx", shrt, "unknown short option in a cluster");
	refused(NULL, "--even abc", cb, "a callback's reason");
}

static void
test_help(void)
{
	struct vals v;
	const struct parseopt opts[] = {
		OPT_FLAG('q', "quiet", &v.quiet, "say less"),
		OPT_LIST('t', "tag", &v.tags, "K=V", "a tag"),
		OPT_ENUM(0, "mode", &v.mode, modes, "how"),
		OPT_END(),
	};
	const struct parseopt_cmd cmd = { .name = "demo", .args = "FILE...",
	    .opts = opts };
	struct strbuf sb = STRBUF_INIT;

	parseopt_usage(&cmd, &sb);
	CHECK_EQ_STR(sb.buf, "usage: pathstat demo [-q | --quiet] "
	    "[-t | --tag K=V]... [--mode fast|slow]\n"
	    "                     FILE...\n",
	    "the usage line from the table, wrapped before column 80");
	strbuf_reset(&sb);
	parseopt_help_options(opts, &sb);
	CHECK_EQ_STR(sb.buf,
	    "  -q, --quiet       say less\n"
	    "  -t, --tag K=V     a tag\n"
	    "  --mode fast|slow  how\n"
	    "  -h, --help        this help\n", "the option lines");
	strbuf_release(&sb);
}

int
main(void)
{
	test_kinds();
	test_errors();
	test_help();
	return test_done();
}
