#!/bin/sh
# SPDX-License-Identifier: MIT
# The man pages as a reader sees them (man -l at 80 columns): no word is
# hyphenated across lines (an option or event name broken as WALK_COM-PLETED
# cannot be copied), examples are literal blocks, no scdoc markup leaks
# (write__k_) and no scdoc line break shows as ++, and no command's --help
# lists an option twice.
. "$(dirname "$0")/lib.sh"

mandir=$(dirname "$MEMTLB")/man
src=$(dirname "$0")/../../man

if command -v man >/dev/null && command -v groff >/dev/null && [ -d "$mandir" ]; then
	for page in "$mandir"/*.[157]; do
		name=$(basename "$page")
		MANWIDTH=80 man -l "$page" 2>/dev/null | col -b >"$work/$name.txt"
		[ -s "$work/$name.txt" ] || { fail "$name: did not render"; continue; }
		# groff's hyphen for a word it broke is U+2010
		if grep -n '‐$' "$work/$name.txt" >"$work/hy"; then
			fail "$name: hyphenated across lines"; sed 's/^/  /' "$work/hy" >&2
		else ok; fi
		# scdoc's line break (++) taken literally: a literal block closed
		# after the first line of an example leaves the rest as text
		if grep -n '++' "$work/$name.txt" >"$work/pp"; then
			fail "$name: a literal ++ shows"; sed 's/^/  /' "$work/pp" >&2
		else ok; fi
		# scdoc markup that was not taken: doubled or trailing underscores
		if grep -nE '[A-Za-z]__[A-Za-z]+_|[a-z]\*[A-Za-z]+\*' "$work/$name.txt" >"$work/mk"; then
			fail "$name: scdoc markup shows"; sed 's/^/  /' "$work/mk" >&2
		else ok; fi
	done
	# the long example of memtlb-stat(1), on one line, whole
	expect_grep '^[[:space:]]+memtlb stat -e cycles,DTLB_LOAD_MISSES:WALK_COMPLETED,DTLB_LOAD_MISSES:WALK_ACTIVE$' \
		"$work/memtlb-stat.1.txt" "stat's example on one line"
fi

# EXAMPLES: every command line is in a literal block (``` ... ```).
for f in "$src"/*.scd; do
	if awk '/^# /{ ex = /EXAMPLE/ } /^```/{ lit = !lit; next }
		ex && !lit && /^\t/ { print FILENAME ": " $0; bad = 1 } END { exit bad }' "$f" \
		>"$work/ex"; then ok; else
		fail "$(basename "$f"): an example outside a literal block"; cat "$work/ex" >&2; fi
done

# --help: each option once.
for c in stat sweep run compare report list sysinfo probe flush; do
	run "$c" --help
	expect_status 0 "$c --help"
	grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' "$out" | sed 's/^ *//; s/.*, //' | sort |
		uniq -d >"$work/dups"
	grep -oE '^ +-[a-zA-Z],' "$out" | sort | uniq -d >>"$work/dups"
	if [ -s "$work/dups" ]; then fail "$c --help lists twice: $(tr '\n' ' ' <"$work/dups")"
	else ok; fi
done

finish
