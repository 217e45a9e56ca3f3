# SPDX-License-Identifier: MIT
# bash completion for memtlb. tests/cli/doc-sync.sh keeps these lists in step
# with `memtlb --list-cmds` and each command's --help.

_memtlb_commands="stat sweep probe compare report run list sysinfo flush bisect-run selftest"

_memtlb_opts_stat="--warmup --ci-target --min-iterations --max-iterations --max-time --phase --runs --from --region --block --iterations --repeat --passes --backing --file-cache --pages --reserve --access --seed --populate --read-first --tasks --task-mode --task-region --cpu --force --event --events --events-dir --format --field-separator --json --output --verbose --wide --tlb --help"
_memtlb_opts_sweep="--region --vary --phase --knee-ratio --from --order --warmup --ci-target --min-iterations --max-iterations --max-time --block --iterations --repeat --passes --backing --file-cache --pages --reserve --access --seed --populate --read-first --tasks --task-mode --task-region --cpu --force --event --events --events-dir --format --field-separator --json --output --verbose --wide --tlb --help"
_memtlb_opts_probe="--max --pages --knee-ratio --coalesce --format --output --verbose --from --help"
_memtlb_opts_bisect_run="--baseline --threshold --metric --max-runs --from --help"
_memtlb_opts_compare="--explain --fail-above --format --noise --output --test --wide --help"
_memtlb_opts_report="--format --output --origin --checkout --build --run --help"
_memtlb_opts_run="--repeat --interval-print --pid --duration --vary --order --seed --event --events --events-dir --format --field-separator --json --output --verbose --wide --from --help"
_memtlb_opts_list="--events-dir --pmu --verbose --names --help"
_memtlb_opts_sysinfo="--json --check --help"
_memtlb_opts_selftest="--from --knee-ratio --help"
_memtlb_opts_flush="--op --tasks --pages --ops --knee-ratio --region --iterations --event --events --events-dir --format --output --verbose --from --help"

# The words as typed: bash splits at COMP_WORDBREAKS (tlb:tlb_flush is three
# words, --phase=x too); glue back what no blank separates, from COMP_LINE.
# Sets _memtlb_w (the words) and _memtlb_cw (the index of the current one).
_memtlb_words()
{
	local i pos=0 line=${COMP_LINE-} tok glued
	_memtlb_w=()
	_memtlb_cw=$COMP_CWORD
	if [[ -z $line ]]; then
		_memtlb_w=("${COMP_WORDS[@]}")
		return
	fi
	for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
		tok=${COMP_WORDS[i]}
		glued=1
		while [[ ${line:pos:1} == [[:space:]] ]]; do
			((pos++))
			glued=0
		done
		if ((i > 0 && glued)); then
			_memtlb_w[${#_memtlb_w[@]} - 1]+=$tok
		else
			_memtlb_w+=("$tok")
		fi
		((pos += ${#tok}))
		((i == COMP_CWORD)) && _memtlb_cw=$((${#_memtlb_w[@]} - 1))
	done
}

# COMPREPLY from candidates for the whole word $1, each less what readline
# keeps before the word's last : or = (it replaces only what follows).
_memtlb_reply()
{
	local word=$1 keep n
	shift
	keep=${word%"${word##*[:=]}"}
	COMPREPLY=()
	for n in "$@"; do
		[[ $n == "$word"* ]] && COMPREPLY+=("${n#"$keep"}")
	done
}

# -e LIST: event names (memtlb list --names: nothing is opened), after the
# list's last comma.
_memtlb_events()
{
	local word=$1 bin=$2 pre="" n names=()
	[[ $word == *,* ]] && pre=${word%,*},
	while IFS= read -r n; do
		names+=("$pre$n")
	done < <("$bin" list --names 2>/dev/null)
	_memtlb_reply "$word" "${names[@]}"
}

# --phase: mmap, write_0 .. read_N-1 for --passes N (default 5), munmap.
_memtlb_phases()
{
	local word=$1 passes=5 first="" i k names=()
	for ((i = 1; i < ${#_memtlb_w[@]}; i++)); do
		case ${_memtlb_w[i]} in
		--passes) passes=${_memtlb_w[i + 1]} ;;
		--passes=*) passes=${_memtlb_w[i]#--passes=} ;;
		--read-first) first=read_first ;;
		esac
	done
	[[ $passes =~ ^[0-9]+$ ]] && ((passes >= 1 && passes <= 64)) || passes=5
	names=(mmap $first)
	for ((k = 0; k < passes; k++)); do
		names+=("write_$k" "read_$k")
	done
	names+=(munmap)
	_memtlb_reply "$word" "${names[@]}"
}

# After `run --` (or run's first word that is not an option): the command,
# then what that command completes. bash-completion's _command_offset when
# it is loaded; else the command's own -F function if it has one, else files.
_memtlb_command()
{
	local off=$1 name spec func
	if ((COMP_CWORD == off)); then
		COMPREPLY=($(compgen -c -- "${COMP_WORDS[COMP_CWORD]}"))
		return
	fi
	if declare -F _command_offset >/dev/null; then
		_command_offset "$off"
		return
	fi
	name=${COMP_WORDS[off]}
	spec=$(complete -p -- "$name" 2>/dev/null)
	if [[ $spec =~ -F\ ([^ ]+) ]]; then
		func=${BASH_REMATCH[1]}
		COMP_WORDS=("${COMP_WORDS[@]:off}")
		((COMP_CWORD -= off))
		"$func" "$name" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		return
	fi
	COMPREPLY=($(compgen -f -- "${COMP_WORDS[COMP_CWORD]}"))
}

_memtlb()
{
	local cur prev cmd word i opts
	cur=${COMP_WORDS[COMP_CWORD]}
	_memtlb_words
	word=${_memtlb_w[_memtlb_cw]}
	prev=${_memtlb_w[_memtlb_cw - 1]}
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	# run: everything from the command on is that command's
	if [[ $cmd == run ]]; then
		local j argopt=""
		for ((j = i + 1; j < COMP_CWORD; j++)); do
			if [[ ${COMP_WORDS[j]} == -- ]]; then
				_memtlb_command $((j + 1))
				return
			fi
			case ${COMP_WORDS[j]} in
			-e | --event | --events | --events-dir | -o | --output | --format | \
				-x | --field-separator | -I | --interval-print | -p | --pid | \
				--duration | --repeat | -r | --vary | --order | --seed)
				argopt=1
				continue
				;;
			-*) ;;
			*)
				if [[ -z $argopt ]]; then
					_memtlb_command "$j"
					return
				fi
				;;
			esac
			argopt=""
		done
	fi
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$_memtlb_commands --help --version --list-cmds" -- "$cur"))
		return
	fi
	case $prev in
	--format)
		case $cmd in
		stat | sweep | run) word="table csv json" ;;
		probe) word="table csv json" ;;
		compare) word="text markdown csv json html" ;;
		report) word="text markdown html lkp lava kcidb" ;;
		flush) word="table json" ;;
		esac
		COMPREPLY=($(compgen -W "$word" -- "$cur"))
		return
		;;
	--backing)
		COMPREPLY=($(compgen -W "shared anon shm memfd file file:" -- "$cur"))
		return
		;;
	--test)
		COMPREPLY=($(compgen -W "welch mwu" -- "$cur"))
		return
		;;
	--order)
		COMPREPLY=($(compgen -W "sequential interleaved random" -- "$cur"))
		return
		;;
	--pages)
		case $cmd in
		probe) word="base thp hugetlb" ;;
		flush) word="1..64:x2 16..64:4 1..64:1" ;;
		*) word="default base thp mthp:16k mthp:64k mthp:2m hugetlb hugetlb:2m hugetlb:1g" ;;
		esac
		COMPREPLY=($(compgen -W "$word" -- "$cur"))
		return
		;;
	--op)
		COMPREPLY=($(compgen -W "madvise munmap mprotect" -- "$cur"))
		return
		;;
	--file-cache)
		COMPREPLY=($(compgen -W "warm cold" -- "$cur"))
		return
		;;
	--access)
		COMPREPLY=($(compgen -W "seq random stride:" -- "$cur"))
		return
		;;
	--task-mode)
		COMPREPLY=($(compgen -W "thread process" -- "$cur"))
		return
		;;
	--task-region)
		COMPREPLY=($(compgen -W "shared private" -- "$cur"))
		return
		;;
	--from | --tlb)
		COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
		return
		;;
	--vary)
		if [[ $cmd == run ]]; then
			# run varies kernel tunables only: the shorthands of sys/tunable.c
			COMPREPLY=($(compgen -W "thp= mthp:16k= mthp:64k= mthp:2m= fault_around_bytes= pcp_high_fraction= sysfs:/sys/ sysctl: debugfs:" -- "$cur"))
			compopt -o nospace 2>/dev/null
			return
		fi
		COMPREPLY=($(compgen -W "block= backing= iterations= passes= pages= access= tasks= task-mode= task-region= file-cache= seed= sysfs:/sys/ sysctl:" -- "$cur"))
		compopt -o nospace 2>/dev/null
		return
		;;
	-p | --pid)
		if [[ $cmd == run ]]; then
			COMPREPLY=($(compgen -W "$(ps -e -o pid= 2>/dev/null)" -- "$cur"))
			return
		fi
		;;
	-o | --output)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	--events-dir)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	--events)
		COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" list 2>/dev/null | sed -n 's/^\([a-z0-9_-]*\): .*/\1/p')" -- "$cur"))
		return
		;;
	-e | --event)
		_memtlb_events "$word" "${COMP_WORDS[0]}"
		return
		;;
	--phase)
		_memtlb_phases "$word"
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		opts=_memtlb_opts_${cmd//-/_}
		COMPREPLY=($(compgen -W "${!opts}" -- "$cur"))
		return
	fi
	case $cmd in
	compare | report | bisect-run)
		COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
		;;
	run)
		COMPREPLY=($(compgen -c -- "$cur"))
		;;
	list)
		COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" list 2>/dev/null | sed -n 's/^\([a-z0-9_-]*\): .*/\1/p')" -- "$cur"))
		;;
	esac
}
complete -F _memtlb memtlb
