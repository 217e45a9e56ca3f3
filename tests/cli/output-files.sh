#!/bin/sh
# SPDX-License-Identifier: MIT
# -o: what is at the path is never replaced unless it is a regular file
# (devices and FIFOs written through, symlinks kept), every name checked
# before the run, an input never overwritten, the file before stdout,
# strings that are not UTF-8 kept, reports no larger than memtlb reads.
. "$(dirname "$0")/lib.sh"

export MEMTLB_BACKEND="replay:$MEMTLB_TEST_DATA/replay/tlb.txt"
stat1="stat --region 64k -i 1 --passes 1 -e minor-faults,cycles"
d="$work/o"
mkdir "$d" "$d/sub"

# is_report FILE WHAT: FILE holds a loadable memtlb report with results
is_report() {
	if python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["results"]' "$1" 2>/dev/null
	then ok; else fail "$2: not a report with results"; fi
}

# --- what is at the path: a character device, a FIFO, symlinks, "-" ---
# A copy of /dev/null's node in the temp dir: the real one is never touched.
mknod "$d/null" c 1 3
run $stat1 -o "$d/null"
expect_status 0 "-o character device"
if [ -c "$d/null" ]; then ok; else fail "-o replaced a character device"; fi

mkfifo "$d/fifo"
cat "$d/fifo" >"$d/from-fifo" &
reader=$!
run $stat1 -o "$d/fifo"
expect_status 0 "-o FIFO"
if [ -p "$d/fifo" ]; then ok; else
	fail "-o replaced a FIFO"
	kill $reader 2>/dev/null	# blocked in open: no writer will come
fi
wait $reader
is_report "$d/from-fifo" "-o FIFO: the reader got the report"

ln -s sub/target.json "$d/link"
run $stat1 -o "$d/link"
expect_status 0 "-o dangling symlink"
if [ -L "$d/link" ] && [ "$(readlink "$d/link")" = sub/target.json ]; then ok
else fail "-o replaced a symlink"; fi
is_report "$d/sub/target.json" "-o symlink: its target written"
ino=$(stat -c %i "$d/sub/target.json")
run $stat1 -o "$d/link"
expect_status 0 "-o symlink to a report"
if [ -L "$d/link" ]; then ok; else fail "-o replaced a symlink (second write)"; fi
if [ "$(stat -c %i "$d/sub/target.json")" != "$ino" ]; then ok
else fail "-o symlink: target not replaced atomically (same inode)"; fi
if ls -a "$d/sub" "$d" | grep -q '^\.memtlb-'; then fail "temp file left"; else ok; fi

ln -s /proc/self/fd/1 "$d/fd1"
run $stat1 --format csv -o "$d/fd1"
expect_status 0 "-o symlink to /proc/self/fd/1"
if [ -L "$d/fd1" ]; then ok; else fail "-o replaced a link to /proc/self/fd/1"; fi
expect_grep '"schema"' "$out" "-o /proc/self/fd/1: the report on stdout"

run $stat1 -o -
expect_status 0 "stat -o -"
is_report "$out" "stat -o -"
if [ -e ./- ] || [ -e "$work/-" ]; then fail "-o - made a file named -"; else ok; fi
run sweep --region 64k..128k -i 1 --passes 1 -e minor-faults -o -
expect_status 0 "sweep -o -"
is_report "$out" "sweep -o -: one report on stdout"
run run -e minor-faults -o - -- /bin/true
expect_status 0 "run -o -"
is_report "$out" "run -o -"
cp "$d/sub/target.json" "$d/in.json"
run report "$d/in.json" -o -
expect_status 0 "report -o -"
expect_grep 'memtlb' "$out" "report -o -: the document on stdout"

# --- a descriptor path is written through, at its offset: never renamed over ---
# The shell's >> opens stdout O_APPEND: the report follows what was there.
for o in /dev/stdout /dev/fd/1 "$d/fd1"; do
	echo "first line" >"$d/build.log"
	ino=$(stat -c %i "$d/build.log")
	"$MEMTLB" $stat1 --format csv -o "$o" >>"$d/build.log" 2>"$work/err"
	status=$?
	expect_status 0 "-o $o >> build.log"
	if [ "$(head -1 "$d/build.log")" = "first line" ] &&
	   [ "$(stat -c %i "$d/build.log")" = "$ino" ]; then ok
	else fail "-o $o >> build.log: the log was replaced"; fi
	expect_grep '"schema"' "$d/build.log" "-o $o >> build.log: the report appended"
	expect_grep '^point,phase' "$d/build.log" "-o $o >> build.log: the CSV appended too"
done
# Written at the descriptor's offset: the report after what is already there.
{ echo "before"; "$MEMTLB" $stat1 --format csv -o /dev/stdout 2>"$work/err"; } >"$d/fd.out"
if [ "$(head -1 "$d/fd.out")" = before ]; then ok; else fail "-o /dev/stdout: not at its offset"; fi
if ls -a "$d" | grep -q '^\.memtlb-'; then fail "-o /dev/stdout: temp file left"; else ok; fi

# --- an output that is one of the inputs: refused before the run ---
printf '%s\n' '{"memtlb": {"schema": 2, "version": "test", "command": "probe"},' \
	' "probe": {"levels": [{"name": "L1 dTLB", "entries_min": 56, "entries_max": 72,' \
	'  "page_size": 4096, "reach_bytes": 294912, "confidence": 0.9}],' \
	' "points": [], "unvalidated": 0, "huge_slow_at": null}}' \
	>"$d/p.json"
cp "$d/p.json" "$d/p.orig"
ln -s p.json "$d/p-link.json"
for o in "$d/p.json" "$d/p-link.json"; do
	usage_case "stat --tlb P -o P ($o)" $stat1 --tlb "$d/p.json" -o "$o"
	expect_grep 'is the input' "$err" "stat --tlb P -o P: says why"
	usage_case "sweep --tlb P -o P ($o)" sweep --region 64k..128k -i 1 --passes 1 \
		-e minor-faults --tlb "$d/p.json" -o "$o"
	if cmp -s "$d/p.json" "$d/p.orig"; then ok; else
		fail "-o $o replaced the --tlb input"; cp "$d/p.orig" "$d/p.json"; fi
done
cp "$MEMTLB_TEST_DATA/replay/tlb.txt" "$d/replay.txt"
MEMTLB_BACKEND="replay:$d/replay.txt" usage_case "stat -o its replay file" \
	$stat1 -o "$d/replay.txt"
if cmp -s "$d/replay.txt" "$MEMTLB_TEST_DATA/replay/tlb.txt"; then ok; else
	fail "-o replaced the replay file"; fi

# --- a stream gets one document, at the end, not one per point ---
"$MEMTLB" sweep --region 64k..128k -i 1 --passes 1 -e minor-faults --format csv -o /dev/stdout \
	2>"$work/err" | cat >"$d/sweep.out"
if [ "$(grep -c '"schema"' "$d/sweep.out")" -eq 1 ]; then ok; else
	fail "sweep -o /dev/stdout (a pipe): not one document"; fi
rm -f "$d/from-fifo"
cat "$d/fifo" >"$d/from-fifo" &
reader=$!
# A second document per point would wait for a reader forever: bounded.
timeout 120 "$MEMTLB" sweep --region 64k..128k -i 1 --passes 1 -e minor-faults -o "$d/fifo" \
	>"$work/out" 2>"$work/err"
status=$?
expect_status 0 "sweep -o FIFO"
[ "$status" -eq 0 ] || kill $reader 2>/dev/null
wait $reader
if python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert len(r["results"]) == 2' \
	"$d/from-fifo" 2>/dev/null; then ok; else fail "sweep -o FIFO: not one document of 2 points"; fi

# --- a signal during the write leaves no temp file (SIGXFSZ: past ulimit -f) ---
rm -f "$d/xfsz.json"
(ulimit -f 1; exec "$MEMTLB" $stat1 -o "$d/xfsz.json" >/dev/null 2>"$work/err")
status=$?
if [ "$status" -ne 0 ]; then ok; else fail "-o past ulimit -f: exit 0"; fi
if ls -a "$d" | grep -q '^\.memtlb-'; then fail "SIGXFSZ: temp file left"; else ok; fi
if [ -e "$d/xfsz.json" ]; then fail "SIGXFSZ: a report written"; else ok; fi

# --- every name checked before the run: exit 2, one line, nothing run ---
usage_case "-o empty" $stat1 -o ""
usage_case "-o directory" $stat1 -o "$d/sub"
usage_case "-o DIR/" $stat1 -o "$d/sub/"
long=$(printf '%0300d' 0)
usage_case "-o name over NAME_MAX" $stat1 -o "$d/$long"
usage_case "-o missing parent" $stat1 -o "$d/missing/r.json"
usage_case "-o parent is a file" $stat1 -o "$d/in.json/r.json"
mknod "$d/blk" b 7 200
usage_case "-o block device" $stat1 -o "$d/blk"
if [ -b "$d/blk" ]; then ok; else fail "-o replaced a block device"; fi
ln -s loop "$d/loop"
usage_case "-o symlink loop" $stat1 -o "$d/loop"
usage_case "run -o directory" run -o "$d/sub" -- /bin/true
usage_case "sweep -o DIR/" sweep --region 64k..128k -i 1 --passes 1 -o "$d/sub/"
usage_case "report -o directory" report "$d/in.json" -o "$d/sub"
usage_case "report -o empty" report "$d/in.json" -o ""

# --- scripts/memtlb-vm -o: memtlb's rules on the host, no guest needed ---
# Its output lines, sourced alone (no qemu): deliver SRC DEST as the script
# ends, out_check DEST as it starts.
vmlib="$work/vm-output.sh"
{
	echo 'prog=memtlb-vm; err() { echo "$prog: $*" >&2; }'
	sed -n '/^# >>> output$/,/^# <<< output$/p' "$MEMTLB_SOURCE_ROOT/scripts/memtlb-vm"
} >"$vmlib"
# vm_deliver DEST: the report in.json delivered to DEST; $status
vm_deliver() {
	bash -c '. "$1"; deliver "$2" "$3"' sh "$vmlib" "$d/in.json" "$1" 2>"$work/err"
	status=$?
}
mknod "$d/vm-null" c 1 3
vm_deliver "$d/vm-null"
expect_status 0 "memtlb-vm -o character device"
if [ -c "$d/vm-null" ]; then ok; else fail "memtlb-vm -o replaced a character device"; fi
printf 'old\n' >"$d/sub/vm-target.json"
ln -s sub/vm-target.json "$d/vm-link"
vm_deliver "$d/vm-link"
expect_status 0 "memtlb-vm -o symlink"
if [ -L "$d/vm-link" ]; then ok; else fail "memtlb-vm -o replaced a symlink"; fi
is_report "$d/sub/vm-target.json" "memtlb-vm -o symlink: its target replaced"
echo "first line" >"$d/vm.log"
bash -c '. "$1"; deliver "$2" /dev/stdout' sh "$vmlib" "$d/in.json" >>"$d/vm.log" 2>"$work/err"
if [ "$(head -1 "$d/vm.log")" = "first line" ]; then ok; else
	fail "memtlb-vm -o /dev/stdout >> log: the log replaced"; fi
expect_grep '"schema"' "$d/vm.log" "memtlb-vm -o /dev/stdout: the report appended"
cat "$d/fifo" >"$d/vm-fifo.out" &
reader=$!
vm_deliver "$d/fifo"
expect_status 0 "memtlb-vm -o FIFO"
[ "$status" -eq 0 ] || kill $reader 2>/dev/null	# blocked in open: no writer came
wait $reader
if [ -p "$d/fifo" ]; then ok; else fail "memtlb-vm -o replaced a FIFO"; fi
is_report "$d/vm-fifo.out" "memtlb-vm -o FIFO: the reader got the report"
vm_deliver "$d/blk"
expect_status 1 "memtlb-vm -o block device"
if [ -b "$d/blk" ]; then ok; else fail "memtlb-vm -o replaced a block device"; fi
if ls -a "$d" "$d/sub" | grep -q '^\.memtlb-vm'; then fail "memtlb-vm: temp file left"; else ok; fi

# --- report never replaces its own input (by name, symlink, hard link) ---
cp "$d/in.json" "$d/in.orig"
ln -s in.json "$d/in-link.json"
ln "$d/in.json" "$d/in-hard.json"
for o in "$d/in.json" "$d/in-link.json" "$d/in-hard.json" "$d/sub/../in.json"; do
	usage_case "report -o its input ($o)" report "$d/sub/target.json" "$d/in.json" -o "$o"
	if cmp -s "$d/in.json" "$d/in.orig"; then ok; else
		fail "report -o $o replaced its input"; cp "$d/in.orig" "$d/in.json"; fi
done

# --- the report file before stdout: a reader that stops early loses nothing ---
rm -f "$d/early.json"
"$MEMTLB" stat --region 64k -i 3000 --passes 1 -e minor-faults --format json -o "$d/early.json" \
	2>"$work/err" | head -1 >/dev/null
is_report "$d/early.json" "-o written before stdout (| head -1)"

# --- strings that are not UTF-8: kept escaped, never dropped ---
bad=$(printf 'a\377b')
run run -e minor-faults -o "$d/bad.json" -- /bin/echo "$bad"
expect_status 0 "run with an argument that is not UTF-8"
is_report "$d/bad.json" "not UTF-8: the results kept"
if python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["run"]["command_line"].endswith("a\\xFFb"), r["run"]' "$d/bad.json"
then ok; else fail "not UTF-8: the command line not stored as a\\xFFb"; fi

# --- size: memtlb writes nothing it would refuse to read ---
usage_case_o "-o report over the loader's cap" stat --region 64k -i 1000000 --passes 1 -e minor-faults
usage_case "--format json over the loader's cap" stat --region 64k -i 1000000 --passes 1 --format json
usage_case "sweep report over the cap" sweep --region 64k..4m -i 200000 --passes 1 -o "$d/big.json"
head -c 70000000 /dev/zero | "$MEMTLB" report /dev/stdin >"$work/out" 2>"$work/err"
status=$?
expect_status 2 "report from a pipe over the cap"
expect_grep 'larger than a report can be' "$work/err" "report from a pipe: capped"

# --- the kernel's rules, not a hand-made resolver (root) -------------------
# A link another user planted in a sticky world-writable directory (/tmp's
# kind) is the kernel's to refuse (fs.protected_symlinks): root's -o once
# followed it by hand and replaced the file it named, any file.
ps=/proc/sys/fs/protected_symlinks
if [ "$(id -u)" -eq 0 ] && [ -w $ps ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1
then
	was=$(cat $ps)
	echo 1 >$ps
	chmod 755 "$work"
	mkdir "$work/sticky" && chmod 1777 "$work/sticky"
	echo precious >"$work/victim"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		ln -s "$work/victim" "$work/sticky/run.json"
	run $stat1 -o "$work/sticky/run.json"
	[ "$status" -ne 0 ] && ok || fail "-o a link planted in a sticky directory: followed"
	[ "$(cat "$work/victim")" = precious ] && ok || fail "-o replaced the planted link's target"
	[ -L "$work/sticky/run.json" ] && ok || fail "-o replaced the planted link"
	# ... and planted while root's run goes on, after -o was checked
	rm -f "$work/sticky/run.json"
	MEMTLB_TEST_HOLD="$work/go" MEMTLB_TEST_HELD="$work/held" \
		LD_PRELOAD="$MEMTLB_TEST_BUILD/libhold-open.so" \
		"$MEMTLB" $stat1 -o "$work/sticky/run.json" >/dev/null 2>"$work/race.err" &
	pid=$!
	i=0
	until [ -e "$work/held" ] || [ $i -ge 500 ]; do sleep 0.02; i=$((i + 1)); done
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		ln -s "$work/victim" "$work/sticky/run.json"
	touch "$work/go"
	wait $pid
	[ "$(cat "$work/victim")" = precious ] && ok ||
		fail "-o replaced the target of a link planted during the run"
	echo "$was" >$ps
else
	echo "not root, or no setpriv/nobody: the planted-link case skipped"
fi

# -o /dev/stdout appended to a log: written through the descriptor, the log
# kept (it was renamed over, the log lost).
echo "earlier build output" >"$d/build.log"
"$MEMTLB" $stat1 --format csv -o /dev/stdout >>"$d/build.log" 2>/dev/null
expect_grep '^earlier build output$' "$d/build.log" "-o /dev/stdout >> log: the log kept"
expect_grep '"schema"' "$d/build.log" "-o /dev/stdout >> log: the report after it"
expect_grep '^point,phase,metric' "$d/build.log" "-o /dev/stdout >> log: the CSV after it"

# A write past RLIMIT_FSIZE (SIGXFSZ) fails, and leaves no temp file.
(ulimit -f 1; exec "$MEMTLB" $stat1 -o "$d/big.json") >/dev/null 2>"$work/xfsz.err"
status=$?
[ "$status" -ne 0 ] && ok || fail "-o past RLIMIT_FSIZE: exit 0"
if ls -a "$d" | grep -q '^\.memtlb-'; then fail "-o past RLIMIT_FSIZE: a temp file left"; else ok; fi

# --- stat and sweep never replace their --tlb input ------------------------
run probe --max 64k -o "$d/p.json"
cp "$d/p.json" "$d/p.keep"
for cmd in "stat --region 64k -i 1 --passes 1" "sweep --region 64k..128k -i 1 --passes 1"; do
	run $cmd -e minor-faults --tlb "$d/p.json" -o "$d/p.json"
	expect_status 2 "${cmd%% *} -o its --tlb input"
	expect_grep '^memtlb: -o: .*p\.json: is the input ' "$err" "${cmd%% *}: said"
	cmp -s "$d/p.json" "$d/p.keep" && ok || fail "${cmd%% *}: the --tlb input replaced"
done

# --- a reader gone before the output (| head -c1 that has exited): the
# file is whole. compare printed its table first and died of SIGPIPE
# before -o was written. Every command prints through the one sink.
gone() {	# WHAT ARGS...: memtlb ARGS -o FILE into a pipe already closed
	what=$1
	shift
	rm -f "$d/gone.json"
	{ sleep 0.5; "$MEMTLB" "$@" -o "$d/gone.json" 2>/dev/null; } | true
	if [ -s "$d/gone.json" ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \
		"$d/gone.json" 2>/dev/null; then ok; else
		fail "$what -o, reader gone: the file is not whole"; fi
}
cmpd="$MEMTLB_TEST_DATA/compare"
gone compare compare "$cmpd/base.json" "$cmpd/regression.json"
gone "compare --format markdown" compare --format markdown "$cmpd/base.json" "$cmpd/regression.json"
gone stat stat --region 64k -i 1 --passes 1 -e minor-faults
gone sweep sweep --region 64k..128k -i 1 --passes 1 -e minor-faults
gone probe probe --max 1m
gone flush flush --pages 1..2:x2 --ops 10 -i 1 --format json

# --- the file's mode, as perf and a shell redirection leave it ---
# new: 0666 less the umask; there already: its own mode kept, a redirection
# truncates rather than recreates
(umask 027 && "$MEMTLB" $stat1 -o "$d/mode-new.json" >/dev/null 2>&1)
[ "$(stat -c %a "$d/mode-new.json")" = 640 ] && ok ||
	fail "-o: a new file's mode $(stat -c %a "$d/mode-new.json"), not 0666 & ~027"
: >"$d/mode-old.json"
chmod 600 "$d/mode-old.json"
run $stat1 -o "$d/mode-old.json"
[ "$(stat -c %a "$d/mode-old.json")" = 600 ] && ok ||
	fail "-o: a file's mode 0600 not kept: $(stat -c %a "$d/mode-old.json")"
is_report "$d/mode-old.json" "-o over a 0600 file"
(umask 077 && "$MEMTLB" report "$MEMTLB_TEST_DATA/compare/base.json" \
	-o "$d/mode-report.html" >/dev/null 2>&1)
[ "$(stat -c %a "$d/mode-report.html")" = 600 ] && ok ||
	fail "report -o: umask 077 not honoured: $(stat -c %a "$d/mode-report.html")"

finish
