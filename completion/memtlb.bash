# SPDX-License-Identifier: MIT
# bash completion for memtlb. tests/cli/doc-sync.sh keeps these lists in step
# with `memtlb --list-cmds` and each command's --help.

_memtlb_commands="stat sweep probe compare report run list sysinfo flush"

_memtlb_opts_stat="--warmup --ci-target --min-iterations --max-iterations --max-time --phase --region --block --iterations --repeat --passes --backing --file-cache --pages --reserve --access --seed --populate --read-first --tasks --task-mode --task-region --force --event --events --events-dir --format --field-separator --json --output --verbose --wide --help"
_memtlb_opts_sweep="--region --vary --phase --knee-ratio --from --order --warmup --ci-target --min-iterations --max-iterations --max-time --block --iterations --repeat --passes --backing --file-cache --pages --reserve --access --seed --populate --read-first --tasks --task-mode --task-region --force --event --events --events-dir --format --field-separator --json --output --verbose --wide --help"
_memtlb_opts_probe="--max --pages --knee-ratio --format --output --verbose --help"
_memtlb_opts_compare="--fail-above --format --noise --output --test --wide --help"
_memtlb_opts_report="--format --output --origin --checkout --build --run --help"
_memtlb_opts_run="--repeat --interval-print --pid --duration --event --events --events-dir --format --field-separator --json --output --verbose --wide --help"
_memtlb_opts_list="--events-dir --pmu --verbose --help"
_memtlb_opts_sysinfo="--json --check --help"
_memtlb_opts_flush="--op --tasks --pages --ops --knee-ratio --region --iterations --event --events --events-dir --format --output --verbose --help"

_memtlb()
{
	local cur prev cmd word i opts
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
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
		*) word="default base thp hugetlb hugetlb:2m hugetlb:1g" ;;
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
	--from)
		COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
		return
		;;
	--vary)
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
		COMPREPLY=($(compgen -W "$(memtlb list 2>/dev/null | sed -n 's/^\([a-z0-9_-]*\): .*/\1/p')" -- "$cur"))
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		opts=_memtlb_opts_${cmd//-/_}
		COMPREPLY=($(compgen -W "${!opts}" -- "$cur"))
		return
	fi
	case $cmd in
	compare | report)
		COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
		;;
	run)
		COMPREPLY=($(compgen -c -- "$cur"))
		;;
	list)
		COMPREPLY=($(compgen -W "$(memtlb list 2>/dev/null | sed -n 's/^\([a-z0-9_-]*\): .*/\1/p')" -- "$cur"))
		;;
	esac
}
complete -F _memtlb memtlb
