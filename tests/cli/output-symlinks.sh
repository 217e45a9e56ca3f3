#!/bin/sh
# SPDX-License-Identifier: MIT
# -o by the kernel's rules: a link another user plants in a sticky,
# world-writable directory while root's run goes on is refused as open()
# refuses it (fs.protected_symlinks), never followed by hand to replace
# its target. The plant is made deterministic: memtlb run's command plants
# it after -o was checked, before the report is written. Serial: it turns
# fs.protected_symlinks on for its run (and back as it was).
. "$(dirname "$0")/lib.sh"

skip() {
	echo "SKIP: $*"
	exit 77
}
[ "$(id -u)" -eq 0 ] || skip "needs root (a link owned by another user)"
knob=/proc/sys/fs/protected_symlinks
[ -r "$knob" ] || skip "no $knob"
was=$(cat "$knob")
if [ "$was" != 1 ]; then
	echo 1 >"$knob" 2>/dev/null || skip "cannot turn fs.protected_symlinks on"
	trap 'echo "$was" >"$knob"; rm -rf "$work"' EXIT
fi
other=$(id -u nobody 2>/dev/null) || skip "no user nobody"

export MEMTLB_BACKEND="replay:$MEMTLB_TEST_DATA/replay/tlb.txt"
s="$work/sticky"
mkdir -m 1777 "$s"
echo "precious" >"$work/victim"

# plant NAME: the command memtlb run runs: another user's link at s/NAME
plant="ln -s '$work/victim' '$s/run.json' && chown -h $other '$s/run.json'"

# While the run goes on: the write is refused, the victim untouched.
run run -e minor-faults -o "$s/run.json" -- sh -c "$plant"
expect_status 1 "run -o, a link planted during the run"
expect_grep 'run.json: Permission denied' "$err" "planted link: says why"
if [ "$(cat "$work/victim")" = precious ]; then ok; else
	fail "planted link: root replaced its target"; fi
if [ -L "$s/run.json" ]; then ok; else fail "planted link: the link replaced"; fi
if ls -a "$s" "$work" | grep -q '^\.memtlb-'; then fail "planted link: temp file left"; else ok; fi

# Planted before the run: refused up front, exit 2, nothing run.
usage_case "stat -o a planted link" stat --region 64k -i 1 --passes 1 -e minor-faults -o "$s/run.json"
if [ "$(cat "$work/victim")" = precious ]; then ok; else
	fail "planted link (stat): root replaced its target"; fi
usage_case "sweep -o a planted link" sweep --region 64k..128k -i 1 --passes 1 -e minor-faults \
	-o "$s/run.json"

# The same name in a directory of the link's owner's: the kernel follows it,
# and so does memtlb: the link stays, its target gets the report.
rm -f "$s/run.json"
mkdir -m 700 "$work/mine"
ln -s "$work/mine/target.json" "$work/mine/link.json"
run stat --region 64k -i 1 --passes 1 -e minor-faults -o "$work/mine/link.json"
expect_status 0 "-o a link of root's own"
if [ -L "$work/mine/link.json" ] && [ -s "$work/mine/target.json" ]; then ok; else
	fail "-o a link of root's own: target not written"; fi

finish
