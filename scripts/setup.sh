#!/bin/sh
# SPDX-License-Identifier: MIT
# Set up memtlb on a fresh Debian 12 machine, as root, in one command:
#   scripts/setup.sh        install what is missing, build, run memtlb stat --region 1g
#   scripts/setup.sh test   install what is missing, build, run the whole test suite
# A second run only rebuilds what changed.
set -eu

mode=${1:-run}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${MEMTLB_BUILD_DIR:-$top/build}
deps=$top/.deps/libperf

# Build tools and libraries, all from Debian 12. linux-source-6.1 carries
# tools/lib/perf, which Debian does not package (scripts/build-libperf.sh).
packages="gcc libc6-dev make pkg-config meson ninja-build xz-utils
	libpfm4-dev libjansson-dev libcmocka-dev scdoc linux-source-6.1"
case $mode in
run) ;;
# The tests also draw plots, check HTML, fuzz, and boot Debian's 6.1 kernel
# in a guest to compare two real kernels (tests/cli/vm-compare.sh).
test) packages="$packages gnuplot-nox libxml2-utils clang libclang-rt-14-dev
	qemu-system-x86 busybox-static linux-image-cloud-amd64 python3 valgrind
	python3-jsonschema libhwloc-dev debhelper lintian" ;;
*)
	echo "usage: $0 [run|test]" >&2
	exit 2
	;;
esac

missing=
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup: missing packages:$missing" >&2
		echo "hint: run as root, or: apt-get install$missing" >&2
		exit 1
	fi
	echo "setup: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086 # word splitting of the list is intended
	apt-get install -y --no-install-recommends $missing >/dev/null ||
		{ apt-get update >/dev/null && apt-get install -y --no-install-recommends $missing >/dev/null; }
fi

"$top/scripts/build-libperf.sh" "$deps"

if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$top" -Dpkg_config_path="$deps/lib64/pkgconfig" >/dev/null
fi
ninja -C "$build" >/dev/null

case $mode in
run)
	exec "$build/memtlb" stat --region 1g
	;;
test)
	exec meson test -C "$build" --print-errorlogs
	;;
esac
