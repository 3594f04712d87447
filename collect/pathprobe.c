/*
 * pathprobe.c - main(): options, usage and exit codes of pathprobe, the
 * small libc-only TCP connect-time prober that is copied onto cloud
 * instances.  The modes live in probe_connect.c and probe_mtu.c.
 */
#include "common/compat.h"

#include <sys/socket.h>

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "collect/internal.h"
#include "common/parse.h"
#include "common/version.h"

#define PATHPROBE_USAGE \
	"usage: pathprobe [-46hqV] [-b addr] [-i seconds] [-n count]\n" \
	"                 [-o file] [-t seconds] [--no-spin] [--resolve-each]\n" \
	"                 [--rst] host port\n" \
	"       pathprobe --mtu [-46q] [-b addr] [-t seconds] host [port]\n"

enum {
	OPT_MTU = 256,
	OPT_NO_SPIN,
	OPT_RESOLVE_EACH,
	OPT_RST,
};

/* Sorted by name; each next to its short letter, if any. */
static const struct option long_opts[] = {
	{ "help",		no_argument,	NULL, 'h' },
	{ "mtu",		no_argument,	NULL, OPT_MTU },
	{ "no-spin",		no_argument,	NULL, OPT_NO_SPIN },
	{ "resolve-each",	no_argument,	NULL, OPT_RESOLVE_EACH },
	{ "rst",		no_argument,	NULL, OPT_RST },
	{ "version",		no_argument,	NULL, 'V' },
	{ NULL,			0,		NULL, 0 },
};

static int
usage(FILE *fp, int code)
{
	fputs(PATHPROBE_USAGE, fp);
	if (fp == stdout)
		printf("\n"
		    "Measure TCP connect (three-way handshake) time to "
		    "host:port,\n"
		    "one CSV row per probe; a timeout is loss, never an RTT.\n"
		    "\n"
		    "  -4, -6          use IPv4 or IPv6 only\n"
		    "  -b addr         bind to this source address\n"
		    "  -i seconds      interval between probe starts (%g)\n"
		    "  -n count        number of probes (%d)\n"
		    "  -o file         write the CSV to file (atomically), not "
		    "stdout\n"
		    "  -q              no summary line on stderr\n"
		    "  -t seconds      timeout: a slower probe is loss (%g)\n"
		    "  --no-spin       always sleep while waiting, never poll "
		    "in a loop\n"
		    "  --resolve-each  resolve host before every probe, inside "
		    "the timing\n"
		    "  --rst           close with RST (SO_LINGER 0): no "
		    "TIME_WAIT pile-up\n"
		    "  --mtu           find the path MTU with DF UDP probes "
		    "(best effort)\n"
		    "\n"
		    "Exit: 0 all probes ok, 3 some failed, 1 could not run, "
		    "2 usage.\n"
		    "See pathprobe(1).\n",
		    PROBE_INTERVAL_DEFAULT, PROBE_COUNT_DEFAULT,
		    PROBE_TIMEOUT_DEFAULT);
	return code;
}

static int
bad_usage(const char *what, const char *arg)
{
	if (arg)
		collect_warnx("invalid %s '%s'", what, arg);
	else
		collect_warnx("%s", what);
	return usage(stderr, PROBE_EXIT_USAGE);
}

/* Strip the brackets of "[::1]"; the result points into arg. */
static const char *
host_arg(char *arg)
{
	size_t len = strlen(arg);

	if (len > 2 && arg[0] == '[' && arg[len - 1] == ']') {
		arg[len - 1] = '\0';
		return arg + 1;
	}
	return arg;
}

int
main(int argc, char **argv)
{
	struct probe_opts o;
	long port;
	int ch;

	memset(&o, 0, sizeof(o));
	o.count = PROBE_COUNT_DEFAULT;
	o.interval_s = PROBE_INTERVAL_DEFAULT;
	o.timeout_s = PROBE_TIMEOUT_DEFAULT;
	o.family = AF_UNSPEC;

	opterr = 0;	/* our own messages, with the "pathprobe: " prefix */
	while ((ch = getopt_long(argc, argv, ":46b:hi:n:o:qt:V", long_opts,
	    NULL)) != -1) {
		switch (ch) {
		case '4':
			o.family = AF_INET;
			break;
		case '6':
			o.family = AF_INET6;
			break;
		case 'b':
			o.bind = optarg;
			break;
		case 'h':
			return usage(stdout, PROBE_EXIT_OK);
		case 'i':
			if (parse_double(optarg, PROBE_SECONDS_MIN,
			    PROBE_INTERVAL_MAX, &o.interval_s))
				return bad_usage("interval", optarg);
			break;
		case 'n':
			if (parse_long(optarg, 1, PROBE_COUNT_MAX,
			    &o.count))
				return bad_usage("count", optarg);
			break;
		case 'o':
			o.outfile = optarg;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 't':
			if (parse_double(optarg, PROBE_SECONDS_MIN,
			    PROBE_TIMEOUT_MAX, &o.timeout_s))
				return bad_usage("timeout", optarg);
			break;
		case 'V':
			printf("pathprobe %s\n", PATHSTAT_VERSION);
			return fflush(stdout) ? PROBE_EXIT_FAIL : PROBE_EXIT_OK;
		case OPT_MTU:
			o.mtu = true;
			break;
		case OPT_NO_SPIN:
			o.no_spin = true;
			break;
		case OPT_RESOLVE_EACH:
			o.resolve_each = true;
			break;
		case OPT_RST:
			o.rst = true;
			break;
		case ':':
			/* only short options take arguments: optopt names
			 * it on glibc and musl alike (argv[optind - 1] is
			 * another word on musl, which permutes otherwise) */
			collect_warnx("option '-%c' needs an argument",
			    optopt);
			return usage(stderr, PROBE_EXIT_USAGE);
		default:
			if (optopt)
				collect_warnx("unknown option '-%c'", optopt);
			else
				collect_warnx("unknown option '%s'",
				    argv[optind - 1]);
			return usage(stderr, PROBE_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;

	if (argc < 1)
		return bad_usage("missing host", NULL);
	if (argc > 2)
		return bad_usage("too many arguments", NULL);
	if (argc < 2 && !o.mtu)
		return bad_usage("missing port", NULL);
	o.host = host_arg(argv[0]);
	if (!*o.host)
		return bad_usage("host", argv[0]);
	o.port = argc == 2 ? argv[1] : NULL;
	if (o.port && parse_long(o.port, 1, 65535, &port))
		return bad_usage("port", o.port);
	/* Keep the schedule's nanosecond arithmetic far from overflow. */
	if ((double)o.count * o.interval_s > 9e9)
		return bad_usage("count times interval is too long a run",
		    NULL);

	if (o.mtu)
		return collect_run_mtu(&o);
	return collect_run_connect(&o);
}
