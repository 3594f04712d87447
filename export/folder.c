/*
 * folder.c - export's output folder DIR: opened and locked for one
 * export at a time, refused when it is neither empty nor ours, its
 * manifest written in place of the old one only when it changed, and
 * our stale part files cleaned away.  Everything below DIR is reached
 * by the rules of common/outdir.h.
 */
#include "common/compat.h"

#include <sys/file.h>
#include <sys/stat.h>

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
#include "export/internal.h"

static bool
dir_is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool empty = true;

	if (!d)
		return errno == ENOENT;
	while (empty && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

/* Whether name is one of our part files (tmp: its hidden temporary
 * form): part-NNNNN.parquet, or part-WRITER-NNNNN.parquet with a
 * writer, so a writer never takes another's files for its own. */
static bool
is_part_name(const char *name, const char *writer, bool tmp)
{
	const char *p = name;
	int i;

	if (tmp && *p++ != '.')
		return false;
	if (strncmp(p, "part-", 5))
		return false;
	p += 5;
	if (writer) {
		size_t n = strlen(writer);

		if (strncmp(p, writer, n) || p[n] != '-')
			return false;
		p += n + 1;
	}
	for (i = 0; i < 5; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
	return !strcmp(p + 5, tmp ? ".parquet.tmp" : ".parquet");
}

int
export_cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}


/*
 * Under DIR/<rel> (DIR open as dirfd, named dir): remove our temporary
 * files, our part files that the manifest no longer lists (a partition
 * gone or with fewer files, an earlier --partition-by, a killed run's
 * leftovers) and then folders left empty.  Never touches a name we do
 * not write, nor anything but a regular file, and never follows a link
 * (a linked folder is left alone: what it points to is not ours).
 * Counts removed part files in *removed.
 */
int
export_remove_stale(int dirfd, const char *dir, const char *rel,
    const char *writer, const struct export_keep *keep, size_t *removed)
{
	struct strbuf shown = STRBUF_INIT, sub = STRBUF_INIT;
	struct dirent *de;
	struct stat stt;
	const char *key;
	DIR *d = NULL;
	int fd, ret = 0, rc;

	strbuf_addf(&shown, "%s/%s", dir, rel);
	fd = outdir_open_path(dirfd, dir, rel, 0);
	if (fd < 0) {
		strbuf_release(&shown);
		return fd == -2 ? 0 : -1;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		ret = error_errno("cannot read '%s'", shown.buf);
		goto cleanup;
	}
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_reset(&sub);
		strbuf_addf(&sub, "%s/%s", rel, de->d_name);
		if (fstatat(fd, de->d_name, &stt, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISDIR(stt.st_mode)) {
			if (export_remove_stale(dirfd, dir, sub.buf, writer, keep,
			    removed))
				ret = -1;
			/* only a folder we emptied, or an empty one */
			unlinkat(fd, de->d_name, AT_REMOVEDIR);
			continue;
		}
		if (!S_ISREG(stt.st_mode)) {
			/* a link or FIFO planted at our temporary name:
			 * reported and removed (the entry, not its target) */
			if (is_part_name(de->d_name, writer, true)) {
				strbuf_reset(&shown);
				strbuf_addf(&shown, "%s/%s", dir, sub.buf);
				if (outdir_clear_planted(fd, de->d_name,
				    shown.buf))
					ret = -1;
			}
			continue;
		}
		key = sub.buf;
		if (is_part_name(de->d_name, writer, true) ||
		    (is_part_name(de->d_name, writer, false) &&
		    !bsearch(&key, keep->path, keep->n, sizeof(*keep->path),
		    export_cmp_strp))) {
			strbuf_reset(&shown);
			strbuf_addf(&shown, "%s/%s", dir, sub.buf);
			rc = outdir_remove_regular(fd, de->d_name, shown.buf);
			if (rc < 0)
				ret = -1;
			else if (rc > 0 && !is_part_name(de->d_name, writer, true))
				(*removed)++;
		}
	}
cleanup:
	if (d)
		closedir(d);
	strbuf_release(&shown);
	strbuf_release(&sub);
	return ret;
}

/* Whether e's files are all there, regular files reached through real
 * folders, with the sizes it records. */
bool
export_files_intact(int dirfd, const struct manifest_entry *e)
{
	struct stat stt;
	size_t i;
	bool ok = e->files.n > 0;

	for (i = 0; i < e->files.n && ok; i++)
		ok = !outdir_stat_path(dirfd, e->files.items[i].path, &stt) &&
		    S_ISREG(stt.st_mode) &&
		    (uint64_t)stt.st_size == e->files.items[i].bytes;
	return ok;
}

/* Write text to the manifest name in the folder dirfd (named dir):
 * manifest.json, or a writer's NAME.json in DIR/manifests (temporary
 * name ".NAME.tmp", then rename, by the rules of common/outdir.h)
 * unless it already holds exactly that.  Sets *wrote. */
int
export_write_manifest(int dirfd, const char *dir, const char *name,
    const struct strbuf *text, bool *wrote)
{
	struct strbuf path = STRBUF_INIT, tmp = STRBUF_INIT, old = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT, tmpname = STRBUF_INIT;
	int fd = -1, ret = -1;

	*wrote = false;
	strbuf_addf(&tmpname, ".%s.tmp", name);
	strbuf_addf(&path, "%s/%s", dir, name);
	strbuf_addf(&tmp, "%s/%s", dir, tmpname.buf);
	if (!outdir_read_regular(dirfd, name, 1 << 30, &old,
	    &why) && old.len == text->len &&
	    !memcmp(old.buf, text->buf, text->len)) {
		ret = 0;
		goto cleanup;
	}
	fd = outdir_create(dirfd, tmpname.buf, tmp.buf);
	if (fd < 0)
		goto cleanup;
	if (outdir_write_all(fd, text->buf, text->len, tmp.buf))
		goto cleanup;
	if (fsync(fd)) {
		error_errno("cannot write '%s'", tmp.buf);
		goto cleanup;
	}
	if (close(fd)) {
		fd = -1;
		error_errno("cannot write '%s'", tmp.buf);
		goto cleanup;
	}
	fd = -1;
	if (outdir_rename(dirfd, tmpname.buf, dirfd, name, path.buf))
		goto cleanup;
	*wrote = true;
	ret = 0;
cleanup:
	if (ret)
		outdir_remove_regular(dirfd, tmpname.buf, tmp.buf);
	if (fd >= 0)
		close(fd);
	strbuf_release(&tmpname);
	strbuf_release(&path);
	strbuf_release(&tmp);
	strbuf_release(&old);
	strbuf_release(&why);
	return ret;
}

/*
 * Open DIR for writing (created), locked against a second export, as
 * *dirfd; with --writer also DIR/manifests as *mfd.  Reads this
 * export's earlier manifest into old (*had_old) and, with --writer,
 * the other writers' into others.  Refuses a DIR that is neither empty
 * nor ours (-2), or that holds the other layout.  0, -1 or -2.
 */
int
export_open_out(const char *out, const char *writer, int *dirfd, int *mfd,
    struct manifest *old, bool *had_old, struct export_writers *others)
{
	struct strbuf shown = STRBUF_INIT, name = STRBUF_INIT;
	struct stat stt;
	bool empty;
	int rc, ret = -1;

	*mfd = -1;
	*had_old = false;
	memset(old, 0, sizeof(*old));
	memset(others, 0, sizeof(*others));
	empty = dir_is_empty(out);
	if (mkdir(out, 0777) && errno != EEXIST) {
		error_errno("cannot create '%s'", out);
		goto cleanup;
	}
	/* one export at a time into a folder */
	*dirfd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*dirfd < 0) {
		error_errno("cannot open '%s'", out);
		goto cleanup;
	}
	if (flock(*dirfd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK)
			error("another export is writing '%s'", out);
		else
			error_errno("cannot lock '%s'", out);
		goto cleanup;
	}
	if (!writer) {
		strbuf_addf(&shown, "%s/manifest.json", out);
		rc = manifest_read_at(*dirfd, "manifest.json", shown.buf,
		    old);
		if (rc < 0)
			goto cleanup;
		if (rc == 1 && !empty) {
			error("'%s' is not empty and holds no manifest.json: "
			    "not an export of pathstat (several machines "
			    "export into one folder with --writer); give an "
			    "empty or new folder", out);
			ret = -2;
			goto cleanup;
		}
		*had_old = rc == 0;
		ret = 0;
		goto cleanup;
	}
	/* --writer: DIR/manifests/NAME.json, and no manifest.json */
	if (!fstatat(*dirfd, "manifest.json", &stt, AT_SYMLINK_NOFOLLOW)) {
		error("'%s' holds one machine's export (manifest.json): "
		    "writers share a folder only when each exports with "
		    "--writer; give a new folder", out);
		ret = -2;
		goto cleanup;
	}
	strbuf_addf(&shown, "%s/manifests", out);
	if (!empty && fstatat(*dirfd, "manifests", &stt,
	    AT_SYMLINK_NOFOLLOW)) {
		error("'%s' is not empty and holds no manifests/: not an "
		    "export of pathstat; give an empty or new folder",
		    out);
		ret = -2;
		goto cleanup;
	}
	*mfd = outdir_open_sub(*dirfd, "manifests", shown.buf,
	    OUTDIR_CREATE);
	if (*mfd < 0)
		goto cleanup;
	strbuf_addf(&name, "%s.json", writer);
	strbuf_reset(&shown);
	strbuf_addf(&shown, "%s/manifests/%s", out, name.buf);
	rc = manifest_read_at(*mfd, name.buf, shown.buf, old);
	if (rc < 0)
		goto cleanup;
	*had_old = rc == 0;
	strbuf_reset(&shown);
	strbuf_addf(&shown, "%s/manifests", out);
	if (export_read_writers(*mfd, shown.buf, writer, others))
		goto cleanup;
	ret = 0;
cleanup:
	strbuf_release(&shown);
	strbuf_release(&name);
	return ret;
}

