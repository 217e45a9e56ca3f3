#!/bin/sh
# SPDX-License-Identifier: MIT
# contrib/lkp-tests as lkp-tests itself takes it, not as memtlb reads the
# format (export.sh does that): lkp's own split-job expands jobs/memtlb.yaml
# (only the parameters run's header names are dimensions), job2sh writes each
# job's job.sh, run_job runs programs/memtlb/run under lkp's bin/run-test,
# and extract_stats runs lkp's run-stats, which runs our parse and lkp's
# dump-stat into RESULT_ROOT/memtlb.json, and lkp's stderr parse into
# stderr.json. The lkp files are tests/vendor/lkp-tests/, unchanged.
# Skipped only where ruby is missing; scripts/setup.sh test installs it and
# the gems lkp's lib/ requires.
. "$(dirname "$0")/lib.sh"

top=${MEMTLB_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
contrib=$top/contrib/lkp-tests
vendor=$top/tests/vendor/lkp-tests
case $MEMTLB in /*) ;; *) MEMTLB=$(pwd)/$MEMTLB ;; esac

if ! command -v ruby >/dev/null; then
	echo "SKIP: ruby is not installed (scripts/setup.sh test)"
	exit 77
fi
# Debian's packages of the gems lkp's lib/ requires: without them every job
# below fails the same way, so say which once.
if ! ruby -e 'require "active_support"; require "git"; require "tty-command"' 2>"$work/gems"; then
	fail "ruby lacks lkp's gems: apt-get install ruby-activesupport ruby-git ruby-tty-command"
	sed 's/^/  /' "$work/gems" >&2
	finish
fi

# LKP_SRC: the vendored lkp files with contrib's added where lkp keeps them.
# Three things lkp has and the vendored set does not, made here: a host file
# (lkp install writes one per machine), lib/http.sh and lib/job.sh (job.sh's
# run_job sources them; of lib/job.sh only run_test is used, whose work on one
# node, not in a VM, is run_program's `env "$@"`), and etc/failure and
# etc/pass, which run-stats reads (empty: no memtlb stat is either).
lkp=$work/lkp err=$work/err
cp -R "$vendor" "$lkp"
mkdir -p "$lkp/programs" "$lkp/jobs" "$lkp/hosts" "$work/bin" "$work/jobs"
cp -R "$contrib/programs/memtlb" "$lkp/programs/memtlb"
cp "$contrib/jobs/memtlb.yaml" "$lkp/jobs/memtlb.yaml"
printf 'nr_cpu: 2\nmemory: 4G\n' >"$lkp/hosts/memtlb-ci"
: >"$lkp/lib/http.sh"
: >"$lkp/etc/failure"
: >"$lkp/etc/pass"
cat >"$lkp/lib/job.sh" <<'SH'
run_test() { env "$@"; }
SH
ln -s "$MEMTLB" "$work/bin/memtlb"

# Every job of the matrix, as lkp makes them.
if (cd "$lkp" && LKP_SRC=$lkp ruby sbin/split-job -t memtlb-ci -o "$work/jobs" jobs/memtlb.yaml) \
	>"$work/split.out" 2>"$err"; then ok; else
	fail "split-job jobs/memtlb.yaml"; sed 's/^/  /' "$err" >&2; fi
njobs=$(find "$work/jobs" -name '*.yaml' | wc -l)
# stat and sweep: 2 pages x 2 tasks each; probe: 1; flush: 2 tasks
if [ "$njobs" -eq 11 ]; then ok; else
	fail "split-job: $njobs jobs, expected 11"; sed 's/^/  /' "$work/split.out" >&2; fi

# stats_ok JSON TEST: memtlb.json as dump-stat wrote it: every value a list
# of numbers; the KPIs of contrib's etc/index-perf-all.yaml that TEST reports
# there, each matched by a key. Prints the patterns that matched.
stats_ok() {
	ruby -rjson -ryaml - "$1" "$2" "$contrib/etc/index-perf-all.yaml" <<'RB'
stats = JSON.parse(File.read(ARGV[0]))
test = ARGV[1]
index = YAML.load_file(ARGV[2]).keys
bad = stats.reject { |_, v| v.is_a?(Array) && !v.empty? && v.all? { |x| x.is_a?(Numeric) } }
abort "not lists of numbers: #{bad.keys.first(3)}" unless bad.empty?
# each command's KPIs, by the index's own patterns
want = { 'stat' => %w[ns_per_block time_ns blocks_per_s],
         'sweep' => %w[ns_per_block time_ns blocks_per_s],
         'flush' => %w[ns_per_block time_ns],
         'probe' => %w[translation_ns] }.fetch(test)
# a probe that found no TLB level here reports none: its sizes say it ran
want = [] if test == 'probe' && !stats.key?('memtlb.probe.levels')
abort 'probe: no memtlb.probe.sizes' if test == 'probe' && !stats.key?('memtlb.probe.sizes')
index.each do |pat|
  re = /\A#{pat}\z/
  hit = stats.keys.any? { |k| k =~ re }
  puts pat if hit
  abort "no stat matches #{pat} (#{stats.size} stats)" if !hit && want.any? { |w| pat.end_with?("\\.#{w}") }
end
RB
}

for job in "$work"/jobs/*.yaml; do
	name=$(basename "$job" .yaml)
	rr=$work/rt/$name tmp=$work/tmp/$name
	mkdir -p "$rr" "$tmp"
	cp "$job" "$rr/job.yaml"
	if (cd "$lkp" && LKP_SRC=$lkp ruby sbin/job2sh -o "$rr/job.sh" "$job") 2>"$err"; then ok; else
		fail "$name: job2sh"; sed 's/^/  /' "$err" >&2; continue; fi
	test=$(sed -n "s/.*run_test .*test='\([a-z]*\)'.*/\1/p" "$rr/job.sh")
	# A small region, for CI: the job leaves region to run's default (a
	# GiB), so it comes from the environment as a parameter lkp passes.
	case $test in
	stat) region=16m ;;
	sweep) region=1m..4m ;;	# three points: the fits (fit.*.slope_ns)
	probe) region=1m ;;
	flush) region=1m ;;
	*) fail "$name: job.sh runs no memtlb test ($test)"; continue ;;
	esac
	# TMP_RESULT_ROOT is RESULT_ROOT: lkp's post-run copies one to the other
	# before extract_stats, so a name run uses there is one lkp may read.
	if env PATH="$work/bin:$PATH" LKP_SRC="$lkp" RESULT_ROOT="$rr" TMP_RESULT_ROOT="$rr" \
		TMP="$tmp" region="$region" sh "$rr/job.sh" run_job >"$tmp/stdout" 2>"$rr/stderr"
	then ok; else fail "$name: run_job"; sed 's/^/  /' "$rr/stderr" >&2; fi
	# run-test's tee of the output ends when run's stdout closes
	touch "$tmp/.pid-pipes"
	while read -r pid; do
		i=0	# bounded: a pid can be reused
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	done <"$tmp/.pid-pipes"
	# lkp reads every RESULT_ROOT/*.json as a program's stats: run leaves none.
	left=$(cd "$rr" && ls ./*.json 2>/dev/null)
	if [ -z "$left" ]; then ok; else fail "$name: run left $left, which lkp reads as stats"; fi
	if env PATH="$work/bin:$PATH" LKP_SRC="$lkp" RESULT_ROOT="$rr" TMP="$tmp" \
		sh "$rr/job.sh" extract_stats >"$tmp/stats.out" 2>"$tmp/stats.err"
	then ok; else fail "$name: extract_stats"; fi
	# run-stats and dump-stat warn on stderr (a bad value, a name with a
	# space, not a matrix); a clean run has none, nor an incomplete-run mark.
	if [ -s "$tmp/stats.err" ]; then
		fail "$name: run-stats said something"; sed 's/^/  /' "$tmp/stats.err" >&2; else ok; fi
	if [ -e "$rr/last_state" ]; then
		fail "$name: last_state"; sed 's/^/  /' "$rr/last_state" >&2; else ok; fi
	# lkp's stderr parse: each line of a job's stderr becomes a failure stat.
	if [ -e "$rr/stderr.json" ]; then
		fail "$name: stderr became stats"; sed 's/^/  /' "$rr/stderr" >&2; else ok; fi
	if [ -s "$rr/memtlb.json" ] && stats_ok "$rr/memtlb.json" "$test" >"$tmp/kpis" 2>"$err"
	then ok; else
		fail "$name: memtlb.json"; sed 's/^/  /' "$err" >&2; sed 's/^/  out: /' "$rr/memtlb" >&2; fi
	cat "$tmp/kpis" >>"$work/kpis-all"
	# memtlb's own report is still there, and still a report
	if "$MEMTLB" report --format lkp "$rr/memtlb.report" >/dev/null 2>"$err" || [ "$test" = probe ]
	then ok; else fail "$name: memtlb.report"; sed 's/^/  /' "$err" >&2; fi
done

# Each KPI of the index is one some job of the matrix reports: none is dead
# (a probe's, where the probe found a TLB level on this machine).
while IFS=: read -r pat _; do
	if grep -qxF -- "$pat" "$work/kpis-all" 2>/dev/null; then ok
	elif [ "${pat#*probe}" != "$pat" ] && ! grep -q 'probe.levels' "$work"/rt/*/memtlb.json
	then echo "note: no probe found a TLB level here: $pat not seen"; ok; else
		fail "index-perf-all.yaml: no job reports $pat"; fi
done <"$contrib/etc/index-perf-all.yaml"

finish
