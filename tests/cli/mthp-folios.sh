#!/bin/sh
# SPDX-License-Identifier: MIT
# With hugepages-64kB/enabled = always an anon region with the default
# pages (no madvise: the size's own "always" decides, whatever the global
# THP setting) is backed by 64 KiB folios: the proof names them, from
# kpageflags as root and from the mTHP fault counters as nobody, and
# compare warns that the setting differs from a run with it never. The
# setting is restored however the test ends.
. "$(dirname "$0")/lib.sh"

knob=/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled
if [ "$(id -u)" -ne 0 ]; then
	echo "needs root to set $knob: skipped"
	exit 77
fi
if [ ! -w "$knob" ]; then
	echo "no 64 kB mTHP size on this kernel ($knob): skipped"
	exit 77
fi
if ! head -c 8 /proc/kpageflags >/dev/null 2>&1; then
	echo "/proc/kpageflags unreadable: skipped"
	exit 77
fi
orig=$(sed 's/.*\[\(.*\)\].*/\1/' "$knob")
trap 'echo "$orig" >"$knob"; rm -rf "$work"' EXIT INT TERM

# share JSON SIZE: the region's share in folios of SIZE bytes, 0 when none.
share() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["results"][0]["mapping"]["pages"]
print(sum(f["share"] for f in r.get("folios", []) if f["size"] == int(sys.argv[2])))' "$1" "$2"
}
source_of() {
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["results"][0]["mapping"]["pages"].get("folio_source"))' "$1"
}
at_least() {	# VALUE MIN WHAT
	if python3 -c 'import sys; sys.exit(not float(sys.argv[1]) >= float(sys.argv[2]))' \
		"$1" "$2"; then ok; else fail "$3: $1 < $2"; fi
}

echo always >"$knob"
run stat --region 64m -i 2 --backing anon -o "$work/always.json"
expect_status 0 "64 kB always: stat runs"
expect_grep '^pages: .* in 64 KiB folios \((99\.[0-9]|100\.0)%\).*\(kpageflags\)' "$out" \
	"64 kB always: the pages line names 64 KiB folios"
expect_no_grep '^pages: .* in huge pages, .* in base pages' "$out" \
	"64 kB always: no folio called a base page"
at_least "$(share "$work/always.json" 65536)" 0.99 "64 kB always: share of 64 KiB folios"
[ "$(source_of "$work/always.json")" = kpageflags ] && ok || fail "64 kB always: from kpageflags"

# Unprivileged: pagemap hides PFNs, kpageflags is root's; the per-size
# counters over the run say it instead (system-wide, so at least).
if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 &&
	setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$MEMTLB"; then
	chmod 0777 "$work"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$MEMTLB" stat --region 64m -i 2 \
		--backing anon -o "$work/nobody.json" >"$work/out.nobody" 2>"$work/err.nobody"
	status=$?
	err=$work/err.nobody
	expect_status 0 "64 kB always, nobody: stat runs"
	expect_grep '^pages: .* in 64 KiB folios .*\(mTHP fault counters over the run' \
		"$work/out.nobody" "64 kB always, nobody: the counters name 64 KiB folios"
	[ "$(source_of "$work/nobody.json")" = mthp_stats ] && ok ||
		fail "64 kB always, nobody: from the mTHP counters"
	at_least "$(share "$work/nobody.json" 65536)" 0.99 "64 kB always, nobody: share"
else
	echo "# no setpriv or nobody: the unprivileged proof not checked"
fi

echo never >"$knob"
run stat --region 64m -i 2 --backing anon -o "$work/never.json"
expect_status 0 "64 kB never: stat runs"
[ "$(share "$work/never.json" 65536)" = 0 ] && ok || fail "64 kB never: no 64 KiB folios"
expect_grep '^pages: .* in 4 KiB base pages' "$out" "64 kB never: base pages"

run compare "$work/never.json" "$work/always.json"
expect_grep 'mTHP 64kB differs: never \(base\) vs always' "$err" \
	"compare warns that the 64 kB setting differs"

echo "$orig" >"$knob"
[ "$(sed 's/.*\[\(.*\)\].*/\1/' "$knob")" = "$orig" ] && ok || fail "setting restored"
finish
