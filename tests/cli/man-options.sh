#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb stat --help and memtlb-stat(1) document the same long options.
. "$(dirname "$0")/lib.sh"

man="${MEMTLB_SOURCE_ROOT:?}/man/memtlb-stat.1.scd"
run stat --help
expect_status 0 "stat --help"
grep -oE -- '--[a-z][a-z-]+' "$out" | sort -u >"$work/help"
grep -oE -- '^\*(-[a-z], )?--[a-z][a-z-]+' "$man" | grep -oE -- '--[a-z-]+' | sort -u >"$work/man"
if cmp -s "$work/help" "$work/man"; then ok; else
	fail "options in --help (<) and memtlb-stat(1) (>) differ"
	diff "$work/help" "$work/man" >&2
fi
finish
