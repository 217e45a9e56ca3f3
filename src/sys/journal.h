/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_JOURNAL_H
#define MEMTLB_SYS_JOURNAL_H

#include <stdbool.h>
#include <limits.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/*
 * What memtlb changed on the machine, kept where a later memtlb finds it
 * when this one cannot restore it (SIGKILL, the OOM killer, a power cut of
 * a VM): /run/memtlb/journal, under MEMTLB_SYSROOT when it is set. The
 * cleanup registry (cleanup.h) writes it, atomically, before each change
 * (a tunable set, a hugetlb pool grown) and removes it once every restore
 * ran. One line a restore: "restore PATH VALUE", both %XX-escaped.
 *
 * The machine lock, /run/memtlb/lock (an OFD lock, flock-like), serialises the memtlb
 * processes that change the machine: the second would save the first one's
 * value as "the original", or shrink a pool under it. It is taken before
 * the first value is saved and held until the process ends, after its
 * restores ran (the registry runs them at exit, or in the fatal signal's
 * handler, before the kernel drops the lock). The file holds the holder's
 * pid, for the waiting line.
 */

/*
 * Take the machine lock (idempotent in one process). wait: block until the
 * holder is done; otherwise -EWOULDBLOCK with *holder set (0: unknown).
 * Once it is held, a journal left by a process that died is replayed: each
 * value written back, the journal removed (what could not be written back
 * stays in it, alone), the backing files dead processes left removed;
 * note (when note_len > 0) receives a line naming the pid and what was
 * restored or could not be,
 * "" when there was none (mt_journal_note has it later too). Returns 0
 * or -errno (-EACCES: /run/memtlb not writable).
 */
int mt_journal_lock(bool wait, pid_t *holder, char *note, size_t note_len);

/*
 * How long a wait for the machine lock lasts before mt_journal_lock gives
 * up with -ETIMEDOUT (*holder set): MEMTLB_LOCK_TIMEOUT seconds where set
 * (0 to 86400), otherwise this.
 */
#define MT_JOURNAL_LOCK_TIMEOUT_S	600
#define MT_JOURNAL_LOCK_TIMEOUT_ENV	"MEMTLB_LOCK_TIMEOUT"

/*
 * Hand the machine lock this process holds to a memtlb it is about to
 * exec (stat --runs' runs): the lock's fd stays open across the exec and
 * MEMTLB_LOCK_FD names it, so the run takes the lock its parent holds
 * instead of waiting for it for ever. Call in the forked child, before
 * exec. 0 (also when no lock is held) or -errno.
 */
int mt_journal_lock_pass(void);

/*
 * For a command that only measures: where a journal is there, take the
 * lock if it is free, replay the dead process's journal, and let the lock
 * go again (held for the run, it would make the next sweep wait for a
 * plain stat); a held lock means a live memtlb owns the journal. Either
 * way, remove the backing files dead processes left
 * (mt_journal_files_write). Once a process. note as for mt_journal_lock.
 * 0 or -errno (-EACCES: /run/memtlb not writable).
 */
int mt_journal_recover(char *note, size_t note_len);

/* The note of the last replay ("" when none), for a caller that did not ask. */
const char *mt_journal_note(void);

/* One restore the journal lists. */
/*
 * The longest value a restore holds: a tunable is saved up to a page
 * (memtlb-sweep(1)). A journal line is at most "restore " and both fields
 * escaped (3 bytes a byte at worst) and its newline.
 */
#define MT_JOURNAL_VALUE_MAX	4096
#define MT_JOURNAL_LINE_MAX	(8 + 3 * (PATH_MAX + MT_JOURNAL_VALUE_MAX) + 2)

/*
 * The most restore lines a journal holds: the registry's 32 slots, and
 * what dead memtlbs left unrestored, carried from one to the next. More is
 * not a journal memtlb wrote (and each line may be 37 KiB): damaged.
 */
#define MT_JOURNAL_RESTORES_MAX	1024

struct mt_journal_entry {
	const char *path;
	const char *value;
};

/*
 * Replace the journal with these entries, beside what a dead memtlb left
 * that could not be restored (n may be 0 then): 0 or -errno.
 */
int mt_journal_write(const struct mt_journal_entry *e, size_t n);

/*
 * A journal read whole and checked before anything is written back:
 * "memtlb journal", "pid N", then "restore PATH VALUE" lines, each ended
 * by a newline, none longer than MT_JOURNAL_LINE_MAX, every escape sound,
 * at most MT_JOURNAL_RESTORES_MAX of them.
 * Returns its lines, each NUL-ended, one after the other (n in *lines;
 * free() it), or NULL with *bad the first damaged line's number (0: no
 * file, or no memory). Writes nothing.
 */
char *mt_journal_read(const char *path, size_t *lines, long *pid, size_t *bad);

/*
 * One "restore PATH VALUE" line of a journal, its newline gone, split and
 * unescaped in place (path and value point into line): 0, or -EINVAL
 * where it is not one memtlb writes (a cut line, a bad escape, "%00"
 * inside a field, a path of PATH_MAX bytes or more, a value past
 * MT_JOURNAL_VALUE_MAX).
 */
int mt_journal_parse_restore(char *line, char **path, char **value);

/* Remove this process's journal; async-signal-safe (an unlink). */
void mt_journal_remove(void);

/*
 * The backing files this process creates, one list a process in
 * /run/memtlb/files.PID, which it holds an OFD lock on while it lives (a
 * later memtlb that gets the lock knows the writer is gone, whatever
 * process has its pid now). An entry is written before its file is created
 * (created false) and gets the file's identity once it exists: device,
 * inode and birth time (a file made after ours was removed may get our
 * inode number back; its birth time differs). Only a regular file with
 * that identity is removed later.
 */
struct mt_journal_file {
	const char *path;
	bool created;
	dev_t dev;
	ino_t ino;
	struct timespec born;	/* statx's btime; 0 where the file system has none */
};

/*
 * One "file PATH [DEV INO SEC.NSEC]" line of a files list, its newline
 * gone, parsed in place (out->path points into line): 0, or -EINVAL where
 * it is not one memtlb writes. A damaged line names no file to remove.
 */
int mt_journal_parse_file(char *line, struct mt_journal_file *out);

/* A file's birth time (0 where the file system keeps none), by statx. */
void mt_journal_born(int dirfd, const char *path, int flags, struct timespec *born);

/* Replace this process's list (n == 0 removes it): 0 or -errno. */
int mt_journal_files_write(const struct mt_journal_file *e, size_t n);

/* Remove this process's list; async-signal-safe (unlink, close). */
void mt_journal_files_remove(void);

#endif
