#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the libFuzzer targets with clang (ASan+UBSan) and run each one
# briefly from its seed corpus: the CI smoke run. Longer runs:
#   FUZZ_SECONDS=600 tests/fuzz/smoke.sh   or   build-fuzz/tests/fuzz/fuzz-size -runs=10000000
#   (the report target: -max_len=16384 keeps mutants near the seeds' sizes)
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${FUZZ_BUILD_DIR:-$top/build-fuzz}
seconds=${FUZZ_SECONDS:-20}
deps=$top/.deps/libperf

if ! command -v clang >/dev/null; then
	echo "fuzz: clang not installed: skipped" >&2
	exit 77
fi
if [ ! -f "$build/build.ninja" ]; then
	CC=clang meson setup "$build" "$top" -Dfuzz=true -Dtests=disabled -Dman-pages=disabled \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dpkg_config_path="$deps/lib64/pkgconfig" >/dev/null
fi
ninja -C "$build" >/dev/null

status=0
for name in ${FUZZ_TARGETS:-size report loader evset replay range tracefs journal}; do
	target=$build/tests/fuzz/fuzz-$name
	corpus=$(mktemp -d)
	seeds=$name
	[ "$name" != loader ] || seeds=report	# the loader reads what report does
	cp "$top/tests/fuzz/corpus/$seeds"/* "$corpus"/ 2>/dev/null || true
	# inputs that once crashed or leaked: each must pass before fuzzing starts
	for old in "$top/tests/fuzz/regress/$seeds"-*; do
		[ -e "$old" ] || continue
		if ! "$target" "$old" >"$corpus.log" 2>&1; then
			echo "fuzz-$name: FAILED on $old" >&2
			tail -n 30 "$corpus.log" >&2
			status=1
		fi
	done
	if "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 \
		"$corpus" >"$corpus.log" 2>&1; then
		echo "fuzz-$name: ok, $(grep -o 'Done [0-9]* runs' "$corpus.log" | tail -n 1)"
	else
		echo "fuzz-$name: FAILED" >&2
		tail -n 30 "$corpus.log" >&2
		status=1
	fi
	rm -rf "$corpus" "$corpus.log"
done
exit $status
