#!/bin/sh
# SPDX-License-Identifier: MIT
# The command list of `memtlb --list-cmds`, `memtlb --help`, memtlb(1) and the
# bash completion agree, and each command's long options are the same in its
# --help, its man page (man/memtlb-CMD.1.scd) and the completion. Everything
# is derived from the binary and the files: a new command needs its page.
. "$(dirname "$0")/lib.sh"

src=${MEMTLB_SOURCE_ROOT:?}
page="$src/man/memtlb.1.scd"
comp="$src/completion/memtlb.bash"

sorted() { tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' '; }

run --list-cmds
expect_status 0 "--list-cmds"
cmds=$(sorted <"$out")
[ -n "$cmds" ] && ok || fail "--list-cmds: empty"

run --help
help_cmds=$(sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p' "$out" | sorted)
[ "$help_cmds" = "$cmds" ] && ok || fail "--help lists '$help_cmds', --list-cmds '$cmds'"

# memtlb(1): the *name* terms of the COMMANDS section.
man_cmds=$(awk '/^# /{ s = ($0 == "# COMMANDS") } s && /^\*[a-z][a-z0-9-]*\*$/' "$page" |
	   tr -d '*' | sorted)
[ "$man_cmds" = "$cmds" ] && ok || fail "memtlb(1) COMMANDS '$man_cmds', --list-cmds '$cmds'"

comp_cmds=$(sed -n 's/^_memtlb_commands="\(.*\)"$/\1/p' "$comp" | sorted)
[ "$comp_cmds" = "$cmds" ] && ok || fail "completion commands '$comp_cmds', --list-cmds '$cmds'"

for cmd in $cmds; do
	cpage="$src/man/memtlb-$cmd.1.scd"
	if [ ! -f "$cpage" ]; then
		fail "$cmd: no man page man/memtlb-$cmd.1.scd"
		continue
	fi
	ok
	grep -q "\*memtlb-$cmd\*(1)" "$page" && ok || fail "memtlb(1) does not point to memtlb-$cmd(1)"
	run "$cmd" --help
	expect_status 0 "$cmd --help"
	help_opts=$(grep -o -- '--[a-z][a-z0-9-]*' "$out" | sorted)
	# The option terms of the page's OPTIONS section: "*-r, --region* _SIZE_".
	man_opts=$(awk '/^# /{ s = ($0 == "# OPTIONS") } s && /^\*-/' "$cpage" |
		   grep -o -- '--[a-z][a-z0-9-]*' | sorted)
	[ "$help_opts" = "$man_opts" ] && ok ||
		fail "$cmd: --help has '$help_opts', its man page OPTIONS '$man_opts'"
	var=$(echo "_memtlb_opts_$cmd" | tr - _)
	comp_opts=$(sed -n "s/^$var=\"\\(.*\\)\"\$/\\1/p" "$comp" | sorted)
	[ "$help_opts" = "$comp_opts" ] && ok ||
		fail "$cmd: --help has '$help_opts', the completion '$comp_opts'"
done

# No option term is defined twice in a page's OPTIONS section (the check
# above compares sets, so a stale second copy of an entry would pass it).
for mpage in "$src"/man/*.scd; do
	dups=$(awk '/^# /{ s = ($0 == "# OPTIONS") } s && /^\*-/' "$mpage" |
	       sed 's/^\*\([^*]*\)\*.*/\1/' | grep -oE -- '--?[a-zA-Z][a-zA-Z0-9-]*' |
	       sort | uniq -d | tr '\n' ' ')
	[ -z "$dups" ] && ok || fail "$(basename "$mpage"): OPTIONS defines $dups more than once"
	# scdoc leaves _X_ as it is after a letter (x_F_, *write_*_N_): such
	# markup shows up in the page as underscores.
	if command -v scdoc >/dev/null; then
		if scdoc <"$mpage" >"$work/page.roff" 2>"$work/scdoc.err"; then ok; else
			fail "$(basename "$mpage"): scdoc: $(cat "$work/scdoc.err")"; fi
		if grep -nE '(^|[^A-Za-z0-9_])[A-Za-z0-9]*_[A-Z][A-Za-z0-9]*_([^A-Za-z0-9_]|$)' \
			"$work/page.roff" >"$work/left"; then
			fail "$(basename "$mpage"): markup left in the page: $(tr -d '\\' <"$work/left")"
		else ok; fi
	fi
done

# The completion script is valid bash and completes the commands.
if command -v bash >/dev/null; then
	got=$(bash -c '. "$1"; COMP_WORDS=(memtlb ""); COMP_CWORD=1; _memtlb;
		echo "${COMPREPLY[*]}"' sh "$comp" | tr ' ' '\n' | grep -v '^-' | sorted)
	[ "$got" = "$cmds" ] && ok || fail "completion offers '$got'"
fi

finish
