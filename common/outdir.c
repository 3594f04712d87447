/*
 * outdir.c - the confinement rules for writing a folder (outdir.h):
 * descriptors, not paths, below the folder; no link followed, no FIFO
 * opened blocking, and only regular files renamed or removed.
 */
#include "common/compat.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/err.h"
#include "common/outdir.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

#define DIR_FLAGS	(O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* What the entry is, for messages ("a symbolic link"). */
static const char *
kind_of(mode_t m)
{
	if (S_ISLNK(m))
		return "a symbolic link";
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

int
outdir_open_sub(int dirfd, const char *name, const char *shown, int flags)
{
	struct stat st;
	int fd;

	if ((flags & OUTDIR_CREATE) && mkdirat(dirfd, name, 0777) < 0 &&
	    errno != EEXIST)
		return error_errno("cannot create folder '%s'", shown);
	fd = openat(dirfd, name, DIR_FLAGS);
	if (fd >= 0)
		return fd;
	if (errno == ENOENT && !(flags & OUTDIR_CREATE))
		return -2;
	if (errno != ELOOP && errno != ENOTDIR)
		return error_errno("cannot open folder '%s'", shown);
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return error_errno("cannot open folder '%s'", shown);
	if (!(flags & OUTDIR_REPLACE))
		return error("refusing to write into '%s': it is %s (only "
		    "real folders are written into)", shown, kind_of(st.st_mode));
	if (!S_ISLNK(st.st_mode) && !S_ISFIFO(st.st_mode) &&
	    !S_ISSOCK(st.st_mode) && !S_ISCHR(st.st_mode) &&
	    !S_ISBLK(st.st_mode))
		return error("refusing to replace '%s': it is a file, not a "
		    "folder", shown);
	warning("'%s' is %s, not a folder: replaced by a folder (never "
	    "followed)", shown, kind_of(st.st_mode));
	if (unlinkat(dirfd, name, 0) < 0 && errno != ENOENT)
		return error_errno("cannot remove '%s'", shown);
	if (mkdirat(dirfd, name, 0777) < 0)
		return error_errno("cannot create folder '%s'", shown);
	fd = openat(dirfd, name, DIR_FLAGS);
	if (fd < 0)
		return error_errno("cannot open folder '%s'", shown);
	return fd;
}

int
outdir_open_path(int dirfd, const char *base, const char *rel, int flags)
{
	struct strbuf shown = STRBUF_INIT;
	const char *p = rel, *slash;
	int fd = openat(dirfd, ".", DIR_FLAGS), next;

	if (fd < 0)
		return error_errno("cannot open folder '%s'", base);
	strbuf_addstr(&shown, base);
	while (*p) {
		char *name;

		slash = strchr(p, '/');
		name = slash ? xstrndup(p, (size_t)(slash - p)) : xstrdup(p);
		if (*name) {
			strbuf_addf(&shown, "/%s", name);
			next = outdir_open_sub(fd, name, shown.buf, flags);
			close(fd);
			fd = next;
		}
		free(name);
		if (fd < 0 || !slash)
			break;
		p = slash + 1;
	}
	strbuf_release(&shown);
	return fd;
}

int
outdir_open_regular(int dirfd, const char *name, struct stat *st,
    struct strbuf *why)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT)
			return -2;
		strbuf_addstr(why, errno == ELOOP ? "it is a symbolic link" :
		    strerror(errno));
		return -1;
	}
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		strbuf_addf(why, "it is %s", kind_of(st->st_mode));
		close(fd);
		return -1;
	}
	return fd;
}

int
outdir_read_regular(int dirfd, const char *name, size_t max,
    struct strbuf *sb, struct strbuf *why)
{
	struct stat st;
	int fd = outdir_open_regular(dirfd, name, &st, why);

	if (fd < 0)
		return fd;
	if ((uint64_t)st.st_size > max) {
		strbuf_addf(why, "it is larger than %zu bytes", max);
		close(fd);
		return -1;
	}
	if (strbuf_read_fd(sb, fd, max)) {
		strbuf_addstr(why, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int
outdir_stat_path(int dirfd, const char *rel, struct stat *st)
{
	const char *slash = strrchr(rel, '/');
	int fd, ret, saved;

	if (!slash)
		return fstatat(dirfd, rel, st, AT_SYMLINK_NOFOLLOW);
	{
		char *folder = xstrndup(rel, (size_t)(slash - rel));
		char *p = folder, *q;

		fd = openat(dirfd, ".", DIR_FLAGS);
		while (fd >= 0 && p) {
			int next;

			q = strchr(p, '/');
			if (q)
				*q++ = '\0';
			next = *p ? openat(fd, p, DIR_FLAGS) : dup(fd);
			saved = errno;
			close(fd);
			errno = saved;
			fd = next;
			p = q;
		}
		free(folder);
	}
	if (fd < 0)
		return -1;
	ret = fstatat(fd, slash + 1, st, AT_SYMLINK_NOFOLLOW);
	saved = errno;
	close(fd);
	errno = saved;
	return ret;
}

int
outdir_clear_planted(int dirfd, const char *name, const char *shown)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : error_errno("cannot use '%s'",
		    shown);
	if (S_ISREG(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode))
		return error("refusing to replace '%s': it is a folder", shown);
	warning("'%s' is %s: replaced, never followed or opened", shown,
	    kind_of(st.st_mode));
	if (unlinkat(dirfd, name, 0) < 0 && errno != ENOENT)
		return error_errno("cannot remove '%s'", shown);
	return 0;
}

int
outdir_create(int dirfd, const char *name, const char *shown)
{
	int fd;

	if (outdir_clear_planted(dirfd, name, shown))
		return -1;
	if (outdir_remove_regular(dirfd, name, shown) < 0)
		return -1;
	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_NOCTTY | O_CLOEXEC, 0666);
	if (fd < 0)
		return error_errno("cannot create '%s'", shown);
	return fd;
}

int
outdir_write_all(int fd, const void *data, size_t len, const char *shown)
{
	const char *p = data;
	size_t off = 0;

	while (off < len) {
		ssize_t w = write(fd, p + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return error_errno("cannot write '%s'", shown);
		off += (size_t)w;
	}
	return 0;
}

int
outdir_rename(int fromfd, const char *from, int tofd, const char *to,
    const char *shown)
{
	struct stat st;

	if (fstatat(fromfd, from, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return error_errno("cannot put '%s' in place", shown);
	if (!S_ISREG(st.st_mode))
		return error("cannot put '%s' in place: its temporary file "
		    "is %s", shown, kind_of(st.st_mode));
	if (outdir_clear_planted(tofd, to, shown))
		return -1;
	if (renameat(fromfd, from, tofd, to) < 0)
		return error_errno("cannot put '%s' in place", shown);
	return 0;
}

int
outdir_remove_regular(int dirfd, const char *name, const char *shown)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : error_errno("cannot use '%s'",
		    shown);
	if (!S_ISREG(st.st_mode))
		return 0;
	if (unlinkat(dirfd, name, 0) < 0)
		return errno == ENOENT ? 0 : error_errno("cannot remove '%s'",
		    shown);
	return 1;
}

long
outdir_entries(int fd)
{
	int dup_fd = dup(fd);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;
	long n = 0;

	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return -1;
	}
	rewinddir(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}
