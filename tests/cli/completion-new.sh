#!/bin/sh
# SPDX-License-Identifier: MIT
# Bash completion of the options added for perf's habits (issue 15), through
# the completion function itself, as bash's compgen runs it.
. "$(dirname "$0")/lib.sh"

command -v bash >/dev/null 2>&1 || { echo "skipped: no bash"; exit 77; }
comp="$MEMTLB_SOURCE_ROOT/completion/memtlb.bash"

# complete WORD...: what _memtlb offers for the last word
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _memtlb
		printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" "$@"
}

for c in stat sweep; do
	for o in --repeat --field-separator --json; do
		if complete_words memtlb $c "${o%??}" | grep -qx -- "$o"; then ok; else
			fail "$c: ${o%??} does not complete to $o"; fi
	done
done
for o in --interval-print --pid --duration --field-separator --json; do
	if complete_words memtlb run "${o%??}" | grep -qx -- "$o"; then ok; else
		fail "run: ${o%??} does not complete to $o"; fi
done
# run -p completes process ids: this shell's is one
if complete_words memtlb run -p "" | grep -qx "$$"; then ok; else
	fail "run -p: no process ids"; fi

finish
