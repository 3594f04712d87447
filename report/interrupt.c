/*
 * interrupt.c - an interrupted report leaves nothing in its bundle.
 *
 * SIGINT, SIGTERM and SIGHUP only set a flag (and interrupt SQLite's
 * running statement, as the sqlite3 shell does): the section walk, the
 * gnuplot wait and the commit look at the flag, the normal path removes
 * the private folder, and cmd_report then re-raises the signal, so the
 * caller still sees the report killed by it.  A report killed outright
 * (SIGKILL, a power cut) leaves its private folder behind: the next
 * report into the same folder removes it, if it is ours by name, a real
 * folder owned by us, and no running report holds its lock.
 */
#include "common/compat.h"

#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "common/err.h"
#include "report/internal.h"

static const int report_sigs[] = { SIGINT, SIGTERM, SIGHUP };
static volatile sig_atomic_t caught;
static sqlite3 *volatile watched_db;

static void
on_signal(int sig)
{
	sqlite3 *db = watched_db;

	caught = sig;
	if (db)
		sqlite3_interrupt(db);
}

void
report_signals_install(sqlite3 *db)
{
	struct sigaction sa;
	size_t i;

	watched_db = db;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(report_sigs); i++) {
		struct sigaction old;

		/* A signal ignored on entry stays ignored ("nohup"). */
		if (sigaction(report_sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(report_sigs[i], &sa, NULL);
	}
}

void
report_signals_unwatch(void)
{
	watched_db = NULL;
}

int
report_interrupted(void)
{
	return caught;
}

void
report_signals_finish(void)
{
	int sig = caught;

	watched_db = NULL;
	if (!sig)
		return;
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Is name one of our private folders' names: the prefix, then six
 * lower-case letters or digits (bundle.c's make_stage)? */
static bool
stage_name(const char *name)
{
	size_t n = strlen(REPORT_STAGE_PREFIX), i;

	if (strncmp(name, REPORT_STAGE_PREFIX, n) || strlen(name) != n + 6)
		return false;
	for (i = n; name[i]; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		    (name[i] >= '0' && name[i] <= '9')))
			return false;
	return true;
}

/* Remove every entry of the folder fd but folders (ours: a private
 * folder's; never followed: unlinkat removes a link, not what it
 * points to). */
void
report_empty_dir(int fd)
{
	int dup_fd = dup(fd);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return;
	}
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(fd, e->d_name, 0);
	closedir(d);
}

/* Empty the stale private folder open as fd: its tables/ and charts/
 * (real folders only) and its files; anything else is left, and the
 * folder with it. */
static void
remove_stage(int fd)
{
	static const char *const subs[] = { "tables", "charts" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(subs); i++) {
		int sub = openat(fd, subs[i], O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);

		if (sub >= 0) {
			report_empty_dir(sub);
			close(sub);
			unlinkat(fd, subs[i], AT_REMOVEDIR);
		}
	}
	report_empty_dir(fd);
}

void
report_sweep_stages(int dirfd, const char *dir)
{
	int dup_fd = dup(dirfd);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		int fd;

		if (!stage_name(e->d_name))
			continue;
		fd = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;	/* a link or no folder: not ours */
		/* ours: owned by us, and no running report holds it */
		if (fstat(fd, &st) < 0 || st.st_uid != geteuid() ||
		    flock(fd, LOCK_EX | LOCK_NB) < 0) {
			close(fd);
			continue;
		}
		remove_stage(fd);
		close(fd);
		if (unlinkat(dirfd, e->d_name, AT_REMOVEDIR) == 0)
			note("removed '%s/%s', the private folder an "
			    "interrupted report left", dir, e->d_name);
		else
			warning("cannot remove '%s/%s', the private folder "
			    "an interrupted report left: %s", dir, e->d_name,
			    strerror(errno));
	}
	closedir(d);
}
