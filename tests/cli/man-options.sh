#!/bin/sh
# SPDX-License-Identifier: MIT
# Every long option a command's --help lists is documented in its man page.
. "$(dirname "$0")/lib.sh"

man=${MEMTLB_SOURCE_ROOT:?}/man
for cmd in stat run list sysinfo; do
	run "$cmd" --help
	expect_status 0 "$cmd --help"
	page=$man/memtlb-$cmd.1.scd
	for opt in $(grep -oE -- '--[a-z][a-z-]+' "$out" | sort -u); do
		if grep -q -- "\*$opt\*" "$page" || grep -q -- "$opt\*" "$page"; then ok; else
			fail "$cmd: $opt is in --help but not in $(basename "$page")"; fi
	done
done
run --help
for cmd in stat run list sysinfo; do
	expect_grep "^  $cmd " "$out" "memtlb --help lists $cmd"
	if grep -q "^\*$cmd\*" "$man/memtlb.1.scd"; then ok; else fail "memtlb(1) lacks $cmd"; fi
done

finish
