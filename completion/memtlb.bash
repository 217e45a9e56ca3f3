# SPDX-License-Identifier: MIT
# bash completion for memtlb. tests/cli/doc-sync.sh keeps these lists in step
# with `memtlb --list-cmds` and each command's --help.

_memtlb_commands="stat compare report"

_memtlb_opts_stat="--region --block --iterations --passes --backing --force --event --format --output --verbose --help"
_memtlb_opts_compare="--fail-above --format --help"
_memtlb_opts_report="--format --output --help"

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
		stat) word="table csv json" ;;
		compare) word="text markdown csv json" ;;
		report) word="text markdown html" ;;
		esac
		COMPREPLY=($(compgen -W "$word" -- "$cur"))
		return
		;;
	--backing)
		COMPREPLY=($(compgen -W "shared anon" -- "$cur"))
		return
		;;
	-o | --output)
		COMPREPLY=($(compgen -f -- "$cur"))
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
	esac
}
complete -F _memtlb memtlb
