#!/bin/sh
# SPDX-License-Identifier: MIT
# The touch loops as compiled: exactly one memory access per block (a store
# in mt_touch_write, a load in mt_touch_verify), inside a loop, and nothing
# the compiler could have dropped or vectorised. Checked on the object file
# the binary links, so a build-type or flag change cannot slip past.
. "$(dirname "$0")/lib.sh"

lib="$(dirname "$MEMTLB")/libmemtlb-touch.a"
if ! command -v objdump >/dev/null || [ ! -f "$lib" ]; then
	echo "objdump or $lib missing: skipped"
	exit 77
fi

body() {	# FUNCTION: its instructions, one per line, without nops
	objdump -d --no-show-raw-insn "$lib" |
		sed -n "/<$1>:/,/^\$/p" | sed 1d | grep -v -e 'nop' -e '^$'
}

check() {	# FUNCTION WHAT PATTERN
	insns=$(body "$1")
	mem=$(printf '%s\n' "$insns" | grep -c '(%')
	match=$(printf '%s\n' "$insns" | grep -Ec "$3")
	if [ "$mem" -eq 1 ] && [ "$match" -eq 1 ]; then ok; else
		fail "$1: expected one $2 and no other memory access"
		printf '%s\n' "$insns" >&2
	fi
	if printf '%s\n' "$insns" | grep -Eq 'j(ne|e|b|a|l|g)[[:space:]]'; then ok; else
		fail "$1: no loop branch"
	fi
	if printf '%s\n' "$insns" | grep -Eq '%[xy]mm'; then
		fail "$1: vectorised"
	else ok; fi
}

check_at() {	# FUNCTION LOADS STORES: the offset's load plus the block's access
	insns=$(body "$1" | grep -v 'lea ')
	mem=$(printf '%s\n' "$insns" | grep -c '(%')
	loads=$(printf '%s\n' "$insns" | grep -Ec '(mov|cmp) +[^,]*\(%[^,]*[^)]*\),%')
	stores=$(printf '%s\n' "$insns" | grep -Ec 'mov +%r[a-z0-9]+,[^,]*\(%')
	if [ "$mem" -eq $(($2 + $3)) ] && [ "$loads" -eq "$2" ] && [ "$stores" -eq "$3" ]; then
		ok
	else
		fail "$1: expected $2 load(s) and $3 store(s), nothing else"
		printf '%s\n' "$insns" >&2
	fi
	if printf '%s\n' "$insns" | grep -Eq '%[xy]mm'; then
		fail "$1: vectorised"
	else ok; fi
}

case $(uname -m) in
x86_64)
	check mt_touch_write "64-bit store" 'mov +%r[a-z0-9]+,\(%'
	check mt_touch_verify "64-bit load" 'mov +\(%r[a-z0-9]+\),%r'
	# The probe's chase: eight dependent loads per turn (p = *p), no store.
	insns=$(body mt_chase_run)
	mem=$(printf '%s\n' "$insns" | grep -c '(%')
	dep=$(printf '%s\n' "$insns" | grep -Ec 'mov +\((%r[a-z0-9]+)\),\1$')
	if [ "$mem" -eq 8 ] && [ "$dep" -eq 8 ]; then ok; else
		fail "mt_chase_run: expected 8 dependent loads and no other memory access"
		printf '%s\n' "$insns" >&2
	fi
	# random order: the offset's load, then the block's store or load
	check_at mt_touch_write_at 1 1
	check_at mt_touch_verify_at 2 0
	;;
*)
	echo "instruction check written for x86_64 only: skipped"
	exit 77
	;;
esac
finish
