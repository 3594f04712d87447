/*
 * infile.c - inputs named by the user, opened without blocking and only
 * when they are regular files (infile.h).
 */
#include "common/compat.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "common/infile.h"
#include "common/strbuf.h"

/* What a non-regular entry is, for messages. */
static const char *
kind_of(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	if (S_ISDIR(m))
		return "a folder";
	return "not a regular file";
}

static void
not_regular(struct strbuf *why, mode_t m)
{
	strbuf_addf(why, "it is %s, not a regular file", kind_of(m));
}

int
infile_open(const char *path, struct strbuf *why)
{
	struct stat st;
	int fd, fl;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return -2;
		strbuf_addstr(why, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		strbuf_addstr(why, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		not_regular(why, st.st_mode);
		goto fail;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		strbuf_addstr(why, strerror(errno));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

int
infile_read(const char *path, size_t max, struct strbuf *sb,
    struct strbuf *why)
{
	int fd = infile_open(path, why), ret = 0;

	if (fd == -2)
		strbuf_addstr(why, strerror(ENOENT));
	if (fd < 0)
		return -1;
	if (strbuf_read_fd(sb, fd, max)) {
		strbuf_addstr(why, strerror(errno));
		ret = -1;
	}
	close(fd);
	return ret;
}

int
infile_check(const char *path, struct strbuf *why)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		strbuf_addstr(why, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		not_regular(why, st.st_mode);
		return -1;
	}
	return 1;
}
