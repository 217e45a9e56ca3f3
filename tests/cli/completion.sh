#!/bin/sh
# SPDX-License-Identifier: MIT
# Bash completion (issue 15) through the completion function, as bash runs
# it for `complete -F`: the words split as bash splits them (at blanks and
# at COMP_WORDBREAKS' : and =), COMP_LINE and COMP_POINT set. Without
# bash-completion installed: nothing of its internals is needed.
. "$(dirname "$0")/lib.sh"

command -v bash >/dev/null 2>&1 || { echo "skipped: no bash"; exit 77; }
comp="$MEMTLB_SOURCE_ROOT/completion/memtlb.bash"

# complete LINE [SETUP]: what _memtlb offers with the cursor at LINE's end,
# one a line; SETUP is bash run first (a fake command's completion).
complete_line() {
	bash -c '. "$1"; eval "$3"
		line=$2 words=() w=""
		for ((i = 0; i < ${#line}; i++)); do
			c=${line:i:1}
			if [[ $c == " " ]]; then
				[[ -n $w ]] && words+=("$w"); w=""
			elif [[ $c == [:=] ]]; then
				[[ -n $w ]] && words+=("$w"); words+=("$c"); w=""
			else
				w+=$c
			fi
		done
		words+=("$w")
		COMP_WORDS=("${words[@]}"); COMP_CWORD=$((${#words[@]} - 1))
		COMP_LINE=$line COMP_POINT=${#line}
		_memtlb memtlb "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" "$1" "${2-}" >"$work/reply" 2>"$work/reply.err"
}
has() {	# WORD WHAT: the reply offers WORD
	if grep -qxF -- "$1" "$work/reply"; then ok; else
		fail "$2: '$1' not offered"; sed 's/^/  reply: /' "$work/reply" "$work/reply.err" >&2; fi
}
lacks() {	# WORD WHAT
	if grep -qxF -- "$1" "$work/reply"; then fail "$2: '$1' offered"; else ok; fi
}
exactly() {	# "W1 W2 ..." WHAT: the reply, in order
	got=$(tr '\n' ' ' <"$work/reply")
	if [ "$got" = "$1 " ]; then ok; else fail "$2: got '$got', expected '$1'"; fi
}

# complete -F _memtlb memtlb, as bash-completion would load it
if bash -c '. "$1"; complete -p memtlb' sh "$comp" | grep -q -- '-F _memtlb memtlb$'; then ok; else
	fail "complete -p memtlb: not -F _memtlb"; fi

# After `run --`: commands, then the command's own completion or files.
complete_line "$MEMTLB run -- l"
has ls "run -- l"
complete_line "$MEMTLB run -e minor-faults -- l"
has ls "run -e X -- l"
mkdir "$work/dir" && : >"$work/dir/afile"
complete_line "$MEMTLB run -- ls $work/dir/a"
has "$work/dir/afile" "run -- ls FILE"
complete_line "$MEMTLB run -- fakecmd x" '_fake() { COMPREPLY=("fake-$2-$COMP_CWORD"); }; complete -F _fake fakecmd'
exactly "fake-x-1" "run -- CMD: CMD's own completion, its words from CMD on"
complete_line "$MEMTLB run l"
has ls "run CMD without --"
complete_line "$MEMTLB run -- --he"
lacks --help "run -- --he: the command's, not memtlb's"

# -e: event names from memtlb list --names, after the list's last comma.
"$MEMTLB" list --names >"$work/names" 2>/dev/null
if grep -qx minor-faults "$work/names" && grep -qx dTLB-load-misses "$work/names"; then ok; else
	fail "list --names: no minor-faults or dTLB-load-misses"; sed 's/^/  /' "$work/names" >&2; fi
if [ "$(sort "$work/names" | uniq -d)" = "" ]; then ok; else fail "list --names: a name twice"; fi
complete_line "$MEMTLB stat -e dTLB-load"
exactly "dTLB-loads dTLB-load-misses" "stat -e dTLB-load"
complete_line "$MEMTLB sweep --event minor-faults,maj"
exactly "minor-faults,major-faults" "-e after a comma"
complete_line "$MEMTLB run -e page-f"
exactly "page-faults" "run -e"
if grep -qx tlb:tlb_flush "$work/names"; then
	# bash splits tlb:tlb_f at the colon: the reply is what follows it
	complete_line "$MEMTLB stat -e tlb:tlb_f"
	has tlb_flush "stat -e tlb:tlb_f"
	complete_line "$MEMTLB stat -e minor-faults,tlb:"
	has tlb_flush "stat -e LIST,tlb:"
fi

# --phase: the phases of the passes asked for, default 5.
complete_line "$MEMTLB sweep --phase "
exactly "mmap write_0 read_0 write_1 read_1 write_2 read_2 write_3 read_3 write_4 read_4 munmap" \
	"--phase: the default 5 passes"
complete_line "$MEMTLB sweep --passes 2 --region 1m..4m --phase r"
exactly "read_0 read_1" "--phase after --passes 2"
complete_line "$MEMTLB sweep --passes 3 --read-first --phase "
exactly "mmap read_first write_0 read_0 write_1 read_1 write_2 read_2 munmap" \
	"--phase with --passes 3 --read-first"

# The options still complete, and -p stays run's pid.
complete_line "$MEMTLB list --na"
exactly "--names" "list --names"
complete_line "$MEMTLB run -p "
has "$$" "run -p: process ids"

finish
