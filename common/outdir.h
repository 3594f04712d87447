/*
 * outdir.h - the confinement rules every command that writes a folder
 * follows (report's bundle, export's datasets): everything below the
 * folder is reached through directory descriptors opened with
 * O_DIRECTORY|O_NOFOLLOW, files are created fresh (O_CREAT|O_EXCL|
 * O_NOFOLLOW) under names the command owns, read only when they are
 * regular files (never blocking on a FIFO or device), and renamed or
 * removed only when they are regular files.  A symbolic link, FIFO,
 * socket or device planted at a name the command writes is reported and
 * replaced (the entry itself, never what it points to); it is never
 * followed or opened.
 */
#ifndef PATHSTAT_COMMON_OUTDIR_H
#define PATHSTAT_COMMON_OUTDIR_H

#include <sys/stat.h>

#include "common/strbuf.h"

/* Flags of outdir_open_sub. */
#define OUTDIR_CREATE	1	/* create the folder when absent */
#define OUTDIR_REPLACE	2	/* replace a planted non-folder (reported) */

/*
 * Open the folder name inside dirfd, never through a symbolic link.
 * shown is how the folder is named in messages.  With OUTDIR_REPLACE a
 * link or other entry that is not a folder is reported and replaced by
 * a real folder; without it, refused.  Returns the descriptor (the
 * caller closes it), -2 when absent and not OUTDIR_CREATE, or -1 after
 * printing.
 */
int outdir_open_sub(int dirfd, const char *name, const char *shown,
    int flags);

/* Open the relative path rel (folders separated by '/') below dirfd
 * (named base in messages), one folder at a time with outdir_open_sub.
 * Same returns. */
int outdir_open_path(int dirfd, const char *base, const char *rel,
    int flags);

/*
 * Open name in dirfd for reading: never through a symbolic link, never
 * blocking on a FIFO, and only a regular file (judged on the open
 * descriptor, *st filled).  Returns the descriptor, -2 when there is no
 * such entry, or -1 with the reason appended to why.
 */
int outdir_open_regular(int dirfd, const char *name, struct stat *st,
    struct strbuf *why);

/* Read the regular file name in dirfd (outdir_open_regular) into sb, at
 * most max bytes.  0, -2 when absent, -1 with the reason in why. */
int outdir_read_regular(int dirfd, const char *name, size_t max,
    struct strbuf *sb, struct strbuf *why);

/* lstat the relative path rel below dirfd without following a link in
 * any component.  0 with *st filled, or -1 (errno set; ELOOP or ENOTDIR
 * when a folder on the way is a link or not a folder). */
int outdir_stat_path(int dirfd, const char *rel, struct stat *st);

/*
 * Clear the way for writing name in dirfd: a symbolic link, FIFO,
 * socket or device there is reported as planted and removed (the entry,
 * never its target).  A regular file or nothing is left as it is; a
 * folder is refused.  0, or -1 after printing.
 */
int outdir_clear_planted(int dirfd, const char *name, const char *shown);

/*
 * Create name in dirfd as a fresh, empty file for writing (a temporary
 * name the command owns): a leftover regular file is removed, a planted
 * entry reported and removed (outdir_clear_planted), then the file is
 * opened O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW.  Returns the descriptor
 * (the caller closes it) or -1 after printing.
 */
int outdir_create(int dirfd, const char *name, const char *shown);

/* Write all of data to fd (shown in messages).  0 or -1 after printing. */
int outdir_write_all(int fd, const void *data, size_t len, const char *shown);

/*
 * Move the regular file from in fromfd to to in tofd (renameat replaces
 * the entry at to, never what it points to); a planted entry at to is
 * reported first.  0, or -1 after printing.
 */
int outdir_rename(int fromfd, const char *from, int tofd, const char *to,
    const char *shown);

/* Remove name from dirfd if it is a regular file.  1 removed, 0 absent
 * or not a regular file (left alone), -1 after printing. */
int outdir_remove_regular(int dirfd, const char *name, const char *shown);

/* Number of entries in the folder open as fd, other than . and .., or
 * -1 (errno set). */
long outdir_entries(int fd);

#endif
