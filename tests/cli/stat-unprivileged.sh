#!/bin/sh
# SPDX-License-Identifier: MIT
# As an unprivileged user: timing and software events still work; kernel
# counting refused by kernel.perf_event_paranoid is said once, with the sysctl.
# paranoid 3 is set for a moment and the original value always restored.
. "$(dirname "$0")/lib.sh"

paranoid=/proc/sys/kernel/perf_event_paranoid
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null || ! id nobody >/dev/null 2>&1; then
	echo "needs root, setpriv and a nobody user: skipped"
	exit 77
fi
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
if ! as_nobody test -x "$MEMTLB"; then
	echo "nobody cannot run $MEMTLB (a private directory): skipped"
	exit 77
fi
chmod 0777 "$work"
orig=$(cat "$paranoid")
trap 'echo "$orig" >"$paranoid"; rm -rf "$work"' EXIT INT TERM

for level in 2 3; do
	echo "$level" >"$paranoid"
	out="$work/out.$level" err="$work/err.$level"
	# perf's own fault events (a set's are getrusage's: see below)
	as_nobody "$MEMTLB" stat --region 16m --backing anon -i 2 --passes 1 -v \
		-e cycles,minor-faults,major-faults >"$out" 2>"$err"
	status=$?
	expect_status 0 "paranoid $level: stat runs"
	expect_grep '^write_0 ' "$out" "paranoid $level: timing still works"
	if grep -q '^write_0 .* 4,096 .* 1\.000$' "$out"; then
		ok
		expect_grep 'perf_event_paranoid' "$err" "paranoid $level: user-only said once, naming the sysctl"
		[ "$(grep -c '^memtlb: warning' "$err")" -eq 1 ] && ok || fail "one warning"
	else
		# Debian's level 3 refuses every event: each says why, naming the sysctl.
		expect_grep 'not supported: not permitted by kernel.perf_event_paranoid' "$out" \
			"paranoid $level: refusal names the sysctl"
	fi
	# The default set's fault counts are getrusage's: no sysctl refuses them.
	as_nobody "$MEMTLB" stat --region 16m --backing anon -i 2 --passes 1 >"$out" 2>"$err"
	expect_grep '^write_0 .* 4,096 .* 1\.000$' "$out" \
		"paranoid $level: the default set's faults still counted"
done
# An event for the kernel alone (:k) has nothing to fall back to: not
# supported, with the reason, never opened user-only and shown as 0.
echo 2 >"$paranoid"
out="$work/out.k" err="$work/err.k"
as_nobody "$MEMTLB" stat --region 16m --backing anon -i 2 --passes 1 -v -e minor-faults:k,minor-faults \
	>"$out" 2>"$err"
status=$?
expect_status 0 "paranoid 2: stat with minor-faults:k"
expect_grep '^write_0 .* not supported +4,096$' "$out" "paranoid 2: :k not supported, the other counts"
expect_grep '^minor-faults:k: not supported: not permitted by kernel.perf_event_paranoid' "$out" \
	"paranoid 2: :k refusal names the sysctl"
as_nobody "$MEMTLB" stat --region 16m --backing anon -i 1 --passes 1 -e minor-faults:k --format json \
	>"$out" 2>"$err"
python3 - "$out" <<'PY' || fail "paranoid 2: minor-faults:k in the report"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["events"][0]["supported"] is False and r["events"][0]["user_only"] is False, r["events"]
c = r["phases"][1]["counters"]["minor-faults:k"]
assert c["supported"] is False and c["error"] == "EACCES" and "mean" not in c, c
PY
ok

echo "$orig" >"$paranoid"
[ "$(cat "$paranoid")" = "$orig" ] && ok || fail "perf_event_paranoid not restored"

# an mTHP size is set for the run: as nobody that is bad input, said first
if [ -e /sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled ]; then
	out="$work/out.mthp" err="$work/err.mthp"
	as_nobody "$MEMTLB" stat --region 8m --backing anon -i 1 --passes 1 --pages mthp:64k \
		>"$out" 2>"$err"
	status=$?
	expect_status 2 "mthp as nobody"
	expect_grep '^memtlb: --pages mthp:64k: .*cannot be written' "$err" \
		"mthp as nobody: the control named"
	expect_grep '^hint: mTHP sizes are set for a run as root' "$err" "mthp as nobody: the hint"
fi
finish
