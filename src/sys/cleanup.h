/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_CLEANUP_H
#define MEMTLB_SYS_CLEANUP_H

/*
 * Restore actions that must run however memtlb ends: at exit, on an error
 * path, and from a handler of every signal whose default action ends the
 * process (all but KILL, STOP, the stop signals, CHLD, CONT, URG, WINCH),
 * which then re-raises the signal with its default action (the shell sees
 * 130, 143, 138, ...). An action is data, not a callback, so
 * the handler only makes async-signal-safe calls (unlink, open, write):
 *   - remove a file memtlb created (a --backing file),
 *   - write a saved value back into a /proc or /sys file (the hugetlb pool
 *     size; kernel tunables changed by a sweep).
 * Only the process that registered an action runs it: forked tasks do not.
 * A handler a command had already installed (sweep's stop-after-this-point)
 * is kept and called instead; the actions then run at exit. A command that
 * installs its own handler later and restores ours after (sweep) works too:
 * exit runs the actions.
 */

/* Install the handlers and the atexit hook; idempotent. 0 or -errno. */
int mt_cleanup_init(void);

/* Register "unlink path at the end"; returns a handle >= 0 or -errno. */
int mt_cleanup_add_unlink(const char *path);

/*
 * A backing file, registered before it is created: listed in this
 * process's files journal (journal.h) first, so that a memtlb after a
 * SIGKILL finds it. Then mt_cleanup_file_created(handle, fd) once the file
 * exists (its device and inode: only that file is removed later), or
 * mt_cleanup_forget(handle) when it was not created (EEXIST: not ours).
 * Returns the handle >= 0 or -errno.
 */
int mt_cleanup_add_file(const char *path);
void mt_cleanup_file_created(int handle, int fd);
void mt_cleanup_forget(int handle);

/*
 * Register "write value into path at the end" (value: the old contents).
 * It takes the machine lock first, and lists the restore in the journal
 * (journal.h) before it returns: the caller changes path after. A path
 * registered already keeps its first value and handle: that value is the
 * original. Returns the handle >= 0 or -errno.
 */
int mt_cleanup_add_restore(const char *path, const char *value);

/*
 * Run one action now and forget it (the normal path); a restore leaves the
 * journal, which is removed with the last one; a restore that fails stays
 * in it (for the next memtlb) whatever runs after. 0 or -errno.
 */
int mt_cleanup_run(int handle);

/* Run every pending action, last registered first. */
void mt_cleanup_run_all(void);

#endif
