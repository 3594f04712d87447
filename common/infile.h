/*
 * infile.h - opening a file a command reads by the name the user gave
 * (--spec, --db, a spec's from_csv): never blocking on a FIFO and only a
 * regular file.  Such a name may come from a shared folder, so a FIFO,
 * socket, device or folder there is refused with what it is instead of
 * hanging the command.  Links are followed (a spec kept as a link is
 * ordinary); what they lead to is judged.
 */
#ifndef PATHSTAT_COMMON_INFILE_H
#define PATHSTAT_COMMON_INFILE_H

#include <stddef.h>

#include "common/strbuf.h"

/*
 * Open path for reading: O_NONBLOCK (a FIFO with no writer would block
 * the open), judged on the open descriptor, then blocking again.
 * Returns the descriptor (the caller closes it), -2 when there is no
 * such file (errno ENOENT), or -1 with the reason appended to why
 * ("it is a FIFO, not a regular file", or strerror).
 */
int infile_open(const char *path, struct strbuf *why);

/* Read the regular file path (infile_open) into sb, at most max bytes.
 * 0, or -1 with the reason in why (absent included). */
int infile_read(const char *path, size_t max, struct strbuf *sb,
    struct strbuf *why);

/*
 * Is path, when it exists, a regular file (for a file another library
 * opens, such as SQLite)?  1 yes, 0 absent, -1 with the reason in why.
 * stat(2) never blocks on a FIFO.
 */
int infile_check(const char *path, struct strbuf *why);

#endif
