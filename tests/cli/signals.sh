#!/bin/sh
# SPDX-License-Identifier: MIT
# Signals, crashes and other memtlb processes: every signal whose default
# action ends memtlb restores the tunables it changed; after SIGKILL the
# journal in /run/memtlb (under MEMTLB_SYSROOT) lets the next memtlb restore
# them; two memtlb changing the same tunable are serialised; a hugetlb sweep
# grows the pool at more points than the registry has slots.
. "$(dirname "$0")/lib.sh"

root="$work/root"
thp="$root/sys/kernel/mm/transparent_hugepage/enabled"
journal="$root/run/memtlb/journal"
orig="always [madvise] never"
mkdir -p "$(dirname "$thp")"
echo "$orig" >"$thp"
# Core-dumping signals (ABRT, SYS, TRAP, XCPU, ...) dump nothing here.
ulimit -c 0
long="sweep --region 8m..128m:8m -i 2 --passes 1 -e minor-faults
	--vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=always,never"

# changed PID: wait (10 s at most) until the sweep has written the tunable.
changed() {
	n=0
	while [ "$(cat "$thp")" = "$orig" ] && [ $n -lt 200 ]; do
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
		n=$((n + 1))
	done
	[ "$(cat "$thp")" != "$orig" ]
}

# signum NAME: the number of SIGNAME ("" when this system has none); the
# shell's kill -l turns numbers into names only.
signum() {
	n=1
	while [ $n -lt 32 ]; do
		[ "$(kill -l $n 2>/dev/null)" = "$1" ] && { echo $n; return; }
		n=$((n + 1))
	done
}

# restored WHAT: the fixture holds the original choice again (a plain file
# keeps what was written: "madvise")
restored() {
	case $(cat "$thp") in
	"$orig" | madvise) ok ;;
	*) fail "$1: tunable left at '$(cat "$thp")'" ;;
	esac
	echo "$orig" >"$thp"
}

# Signals beyond INT, TERM, HUP, QUIT, PIPE, BUS, SEGV: each ends memtlb
# with its own status, the tunable restored and no journal left.
for sig in USR1 USR2 ALRM VTALRM PROF XCPU XFSZ ABRT PWR SYS TRAP STKFLT; do
	num=$(signum "$sig")
	[ -n "$num" ] || continue
	MEMTLB_SYSROOT=$root "$MEMTLB" $long >/dev/null 2>"$work/err" &
	pid=$!
	if changed $pid; then ok; else fail "SIG$sig: the sweep never set the tunable"; fi
	kill -s "$sig" "$pid"
	wait "$pid"
	status=$?
	expect_status $((128 + num)) "SIG$sig ends memtlb"
	restored "SIG$sig"
	if [ -e "$journal" ]; then fail "SIG$sig: journal left"; rm -f "$journal"; else ok; fi
done

# SIGKILL: nothing runs in memtlb, the journal lists the original value.
MEMTLB_SYSROOT=$root "$MEMTLB" $long >/dev/null 2>"$work/err" &
pid=$!
changed $pid
kill -s KILL "$pid"
wait "$pid"
expect_grep "^restore .*/sys/kernel/mm/transparent_hugepage/enabled madvise$" "$journal" \
	"journal after SIGKILL"
# The next sweep restores it before it saves anything, and says so.
out="$work/out" err="$work/err"
MEMTLB_SYSROOT=$root "$MEMTLB" sweep --region 8m -i 1 --passes 1 -e minor-faults -o "$work/r.json" \
	--vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=never >"$out" 2>"$err"
status=$?
expect_status 0 "sweep after a killed one"
expect_grep "^memtlb: warning: memtlb PID $pid ended without restoring .*restored .*enabled to 'madvise'" \
	"$err" "the dead one's change named"
expect_grep "^hint: " "$err" "with a hint"
restored "sweep after SIGKILL: its original is the first one's"
if [ -e "$journal" ]; then fail "journal left after the replay"; rm -f "$journal"; else ok; fi

# Two at once: the second waits for the first, says so, and the original
# survives both (it saved the first one's value before). The second names
# the tunable by its shorthand, which takes the lock as its path does.
MEMTLB_SYSROOT=$root "$MEMTLB" $long >/dev/null 2>"$work/err1" &
first=$!
changed $first
MEMTLB_SYSROOT=$root "$MEMTLB" sweep --region 8m -i 1 --passes 1 -e minor-faults \
	--vary thp=never >/dev/null 2>"$work/err2" &
second=$!
wait $first
status=$?
expect_status 0 "first of two sweeps"
wait $second
status=$?
expect_status 0 "second of two sweeps"
expect_grep "^memtlb: waiting for memtlb PID $first " "$work/err2" "the second one waits, saying so"
restored "two sweeps at once"

# A wait has a bound: past it, the second says who holds the lock and
# exits 1, having changed nothing.
MEMTLB_SYSROOT=$root "$MEMTLB" $long >/dev/null 2>"$work/err1" &
first=$!
changed $first
MEMTLB_LOCK_TIMEOUT=1 MEMTLB_SYSROOT=$root "$MEMTLB" sweep --region 8m -i 1 --passes 1 \
	-e minor-faults --vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=never \
	>/dev/null 2>"$work/err2"
status=$?
expect_status 1 "the lock's wait bounded"
expect_grep "^memtlb: machine lock: memtlb PID $first still holds it: gave up waiting$" \
	"$work/err2" "the bound's error names the holder"
expect_grep "^hint: .*MEMTLB_LOCK_TIMEOUT" "$work/err2" "the bound's hint"
wait $first
status=$?
expect_status 0 "the holder goes on"
restored "a bounded wait"

# Every command that measures replays a dead memtlb's journal before it
# measures, not only those that change the machine, and says so.
dead_journal() {	# PID VALUE: the journal a SIGKILLed memtlb leaves
	mkdir -p "$root/run/memtlb"
	printf 'memtlb journal\npid %s\nrestore %s %s\n' "$1" "$thp" "$2" >"$journal"
	echo never >"$thp"
}
for cmd in "stat --region 1m -i 1 --passes 1 -e minor-faults" "probe --max 1m" \
	"run -e minor-faults -- /bin/true" "sweep --region 1m..2m:1m -i 1 --passes 1 -e minor-faults"; do
	name=${cmd%% *}
	dead_journal 4000001 madvise
	MEMTLB_SYSROOT=$root "$MEMTLB" $cmd >"$work/out" 2>"$work/err"
	status=$?
	err="$work/err"
	expect_status 0 "$name after a killed memtlb"
	expect_grep "^memtlb: warning: memtlb PID 4000001 ended without restoring .*restored .*enabled to 'madvise'" \
		"$err" "$name: the dead one's change restored and named"
	if [ "$(cat "$thp")" = madvise ]; then ok; else
		fail "$name: tunable left at '$(cat "$thp")'"; fi
	if [ -e "$journal" ]; then fail "$name: journal left"; rm -f "$journal"; else ok; fi
	echo "$orig" >"$thp"
done

# A restore that fails stays in the journal, alone, whatever succeeds
# after it: a stat replays two entries (one a directory: EISDIR) ...
bad="$root/sys/not-a-file"
mkdir -p "$bad"
printf 'memtlb journal\npid 4000002\nrestore %s madvise\nrestore %s always\n' "$bad" "$thp" \
	>"$journal"
echo never >"$thp"
run_sr() { MEMTLB_SYSROOT=$root run "$@"; }
run_sr stat --region 1m -i 1 --passes 1 -e minor-faults
expect_status 0 "stat replaying a journal with a failing entry"
expect_grep "could not restore $bad to 'madvise'.*restored .*enabled to 'always'.*stays in the journal" \
	"$err" "the failed restore named"
if [ "$(grep -c '^restore ' "$journal" 2>/dev/null)" = 1 ] &&
	grep -q "^restore $bad madvise$" "$journal"; then ok; else
	fail "journal after a partial replay: the failed entry alone expected"
	cat "$journal" >&2 2>/dev/null; fi
# ... and a sweep that changes and restores a tunable of its own keeps it.
echo "$orig" >"$thp"
run_sr sweep --region 8m -i 1 --passes 1 -e minor-faults \
	--vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=never
expect_status 0 "sweep beside a kept failed restore"
expect_grep "could not restore $bad" "$err" "the sweep retries it"
if grep -q "^restore $bad madvise$" "$journal" 2>/dev/null &&
	[ "$(grep -c '^restore ' "$journal")" = 1 ]; then ok; else
	fail "the failed restore was dropped by a later success"; cat "$journal" >&2 2>/dev/null; fi
restored "sweep beside a kept failed restore"
rm -f "$journal"
rmdir "$bad"

# Backing files: listed before they exist; after SIGKILL the next memtlb
# removes the file it left, only if it is still that file.
back="$work/backing"
mkdir "$back"
# killed_with_file NAME: a stat on file:$back/NAME killed once the file exists
killed_with_file() {
	MEMTLB_SYSROOT=$root "$MEMTLB" stat --region 64m -i 1000 --passes 4 -e minor-faults \
		--backing "file:$back/$1" >/dev/null 2>"$work/err1" &
	pid=$!
	n=0
	while [ ! -e "$back/$1" ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
	sleep 0.1
	kill -s KILL "$pid"
	wait "$pid" 2>/dev/null
	[ -f "$back/$1" ] && ok || fail "backing $1: no file to leave behind"
}
killed_with_file left
if grep -q "^file $back/left [0-9]* [0-9]* [0-9]*\.[0-9]*$" "$root/run/memtlb/files.$pid"; then ok; else
	fail "backing file not in the journal"; cat "$root/run/memtlb/files.$pid" >&2; fi
run_sr stat --region 1m -i 1 --passes 1 -e minor-faults
expect_status 0 "stat after a killed file-backed one"
expect_grep "^memtlb: warning: memtlb PID $pid ended without removing its backing files: removed $back/left" \
	"$err" "the left backing file named"
[ ! -e "$back/left" ] && ok || fail "the killed one's backing file was not removed"
[ ! -e "$root/run/memtlb/files.$pid" ] && ok || fail "the files journal was left"
# Not the file it created: a symlink in its place (to a file of someone
# else's), or another file under that name, stays.
# (Another file may get the removed one's inode number: its birth time differs.)
killed_with_file link
rm "$back/link"
echo precious >"$work/precious"
ln -s "$work/precious" "$back/link"
run_sr stat --region 1m -i 1 --passes 1 -e minor-faults
expect_status 0 "stat after a killed one whose file became a symlink"
expect_grep "left $back/link \(not the file it created\)" "$err" "a symlink in its place: left"
killed_with_file other
rm "$back/other"
echo other >"$back/other"
run_sr stat --region 1m -i 1 --passes 1 -e minor-faults
expect_status 0 "stat after a killed one whose file was replaced"
expect_grep "left $back/other \(not the file it created\)" "$err" "another file: left"
[ -L "$back/link" ] && [ "$(cat "$work/precious")" = precious ] && ok ||
	fail "the symlink or its target was touched"
[ "$(cat "$back/other")" = other ] && ok || fail "another file of that name was removed"
if ls "$root/run/memtlb" | grep -q '^files\.'; then fail "files journals left"; else ok; fi
# A clean run leaves no list behind.
run_sr stat --region 1m -i 1 --passes 1 -e minor-faults --backing "file:$back/clean"
expect_status 0 "file-backed stat"
[ ! -e "$back/clean" ] && ok || fail "clean run: backing file left"
if ls "$root/run/memtlb" | grep -q '^files\.'; then fail "clean run: files journal left"; else ok; fi

# The registry's slots: a hugetlb sweep growing the pool at 35 points (each
# a restore of the same file) used to fail with ENOSPC at the 33rd. The real
# pool, as root only, given back at the end.
pool=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
if [ "$(id -u)" -eq 0 ] && [ -w "$pool" ] && [ -z "${MEMTLB_SYSROOT:-}" ]; then
	before=$(cat "$pool")
	run sweep --pages hugetlb --reserve --region 2m..70m:2m -i 1 --passes 1 -e minor-faults
	if grep -q 'kernel found only' "$err"; then
		echo "skip: the kernel could not grow the pool"
	else
		expect_status 0 "hugetlb sweep over 35 growing points"
	fi
	if [ "$(cat "$pool")" = "$before" ]; then ok; else
		fail "pool left at $(cat "$pool"), was $before"; echo "$before" >"$pool"; fi
else
	echo "skip: the hugetlb pool case needs root and a 2 MiB pool"
fi
# A page of text (a tunable's longest saved value, many lines) comes back
# byte for byte: the replay read 9 KiB lines and wrote a cut value back.
rm -f "$journal" "$journal.damaged"
long="$root/sys/long-tunable"
python3 - "$journal" "$long" "$work/long.want" <<'PY'
import sys
journal, path, want = sys.argv[1:]
value = bytes((i * 7 + 33) % 95 + 32 for i in range(1000)) + b"\n" * 50 + b"%" * 3046
def esc(b):
    return "".join("%%%02X" % c if c <= 32 or c == 37 or c >= 127 else chr(c) for c in b)
open(want, "wb").write(value)
open(path, "w").write("changed\n")
open(journal, "w").write("memtlb journal\npid 4000003\nrestore %s %s\n" % (esc(path.encode()), esc(value)))
PY
run_sr stat --region 1m -i 1 --passes 1 -e minor-faults
expect_status 0 "stat replaying a page-long value"
cmp -s "$long" "$work/long.want" && ok || fail "a page-long value not restored byte for byte"
[ -e "$journal" ] && fail "journal left after a page-long replay" || ok

# A damaged journal is refused whole, said, moved aside: never a guess
# written back (a cut line, a bad escape, a line past the longest).
# The escapes are as strict as the writer: "%00" is the empty value alone
# ("a%00b" was read as "ab"), a field is never empty (a bare "restore P "
# emptied the tunable), the pid is a number alone.
for damage in cut escape long nul empty pid; do
	echo changed >"$long"
	line=3
	case $damage in
	cut) printf 'memtlb journal\npid 4000004\nrestore %s madv' "$long" >"$journal" ;;
	escape) printf 'memtlb journal\npid 4000004\nrestore %s ma%%G1dvise\n' "$long" >"$journal" ;;
	long) python3 -c 'import sys; open(sys.argv[1], "w").write(
"memtlb journal\npid 4000004\nrestore %s %s\n" % (sys.argv[2], "x" * 5000))' "$journal" "$long" ;;
	nul) printf 'memtlb journal\npid 4000004\nrestore %s ma%%00dvise\n' "$long" >"$journal" ;;
	empty) printf 'memtlb journal\npid 4000004\nrestore %s \n' "$long" >"$journal" ;;
	pid) printf 'memtlb journal\npid 4000004x\nrestore %s madvise\n' "$long" >"$journal"
		line=2 ;;
	esac
	run_sr stat --region 1m -i 1 --passes 1 -e minor-faults
	expect_status 0 "stat beside a damaged journal ($damage)"
	[ "$(cat "$long")" = changed ] && ok || fail "damaged journal ($damage): a guess written back"
	expect_grep "journal is damaged \(line $line\): nothing restored" "$err" \
		"damaged ($damage): said"
	[ -e "$journal.damaged" ] && [ ! -e "$journal" ] && ok ||
		fail "damaged ($damage): not moved aside"
	rm -f "$journal.damaged"
done

# A page less its NUL, the longest a sweep saves, round trip through a real
# SIGKILLed sweep: the journal the registry wrote is replayed byte for byte.
rm -f "$journal" "$journal.damaged"
python3 - "$long" "$work/long.want" <<'PY'
import sys
v = bytes((i * 7 + 33) % 95 + 32 for i in range(3000)) + b"\n" * 50 + b"%" * 1045
assert len(v) == 4095
open(sys.argv[1], "wb").write(v)
open(sys.argv[2], "wb").write(v)
PY
MEMTLB_SYSROOT=$root "$MEMTLB" sweep --region 8m..128m:8m -i 2 --passes 1 -e minor-faults \
	--vary sysfs:/sys/long-tunable=aa,bb >/dev/null 2>"$work/err1" &
pid=$!
n=0
while cmp -s "$long" "$work/long.want" && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
kill -s KILL "$pid"
wait "$pid" 2>/dev/null
cmp -s "$long" "$work/long.want" && fail "the sweep never set the long tunable" || ok
run_sr stat --region 1m -i 1 --passes 1 -e minor-faults
expect_status 0 "stat replaying a SIGKILLed sweep's page-long value"
cmp -s "$long" "$work/long.want" && ok || fail "the sweep's page-long value not restored"
[ -e "$journal" ] && fail "journal left after the sweep's replay" || ok

# A files list is read as strictly: a damaged line names no file to
# remove. "a%00b" was read as "ab", and that file removed on its word.
echo mine >"$back/ab"
set -- $(stat -c '%d %i %.9W' "$back/ab")
printf 'memtlb files\npid 4000005\nfile %s %s %s %s\n' "$back/a%00b" "$1" "$2" "$3" \
	>"$root/run/memtlb/files.4000005"
run_sr stat --region 1m -i 1 --passes 1 -e minor-faults
expect_status 0 "stat beside a damaged files list"
[ -e "$back/ab" ] && ok || fail "a file removed on a damaged files list's word"
expect_grep "files.4000005: 1 damaged line, no file removed on its word" "$err" \
	"damaged files list: said"
[ ! -e "$root/run/memtlb/files.4000005" ] && ok || fail "the damaged files list was left"

# sweep -o FIFO with a tunable set and no reader: the stream's one document
# is written after the restore, and ^C ends the wait for a reader (it was
# held behind a blocked write, the tunable still set): 130, restored.
mkfifo "$work/fifo"
MEMTLB_SYSROOT=$root "$MEMTLB" sweep --region 64k..128k -i 1 --passes 1 -e minor-faults \
	-o "$work/fifo" --vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=never \
	>/dev/null 2>"$work/err" &
pid=$!
n=0
while ! grep -q "^memtlb: sweep: 2 points" "$work/err" && [ $n -lt 200 ]; do
	sleep 0.05
	n=$((n + 1))
done
sleep 2	# two points of 64 KiB, measured: the write waits for a reader
kill -s INT "$pid"
n=0
while kill -0 "$pid" 2>/dev/null && [ $n -lt 100 ]; do
	sleep 0.05
	n=$((n + 1))
done
if kill -0 "$pid" 2>/dev/null; then
	fail "sweep -o FIFO: ^C did not end the wait for a reader"
	kill -s KILL "$pid"
fi
wait "$pid"
status=$?
expect_status 130 "sweep -o FIFO, ^C while no reader"
restored "sweep -o FIFO, ^C while no reader"
expect_grep "interrupted by Interrupt after 2 of 2 points; -o not written" "$work/err" \
	"sweep -o FIFO: says the stream was not written"
[ -e "$journal" ] && fail "journal left after sweep -o FIFO" || ok

finish
