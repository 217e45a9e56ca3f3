#!/bin/sh
# SPDX-License-Identifier: MIT
# Build libperf (tools/lib/perf) and the libapi.a it needs from Debian's
# linux-source-6.1 into an ignored local prefix. Debian 12 does not package
# libperf; meson finds this build through PREFIX/lib64/pkgconfig/libperf.pc.
# A second run does nothing once the prefix is complete.
#   build-libperf.sh [PREFIX]                  for this machine (.deps/libperf)
#   build-libperf.sh --cross TRIPLE [PREFIX]   with TRIPLE-gcc, for memtlb's
#       cross builds (cross/TRIPLE.ini): aarch64-linux-gnu or
#       powerpc64le-linux-gnu, into .deps/libperf-aarch64 or -powerpc64le
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
triple=
if [ "${1:-}" = --cross ]; then
	[ $# -ge 2 ] || { echo "build-libperf: --cross: missing TRIPLE" >&2; exit 2; }
	triple=$2
	shift 2
fi
# The kernel's names for the target: ARCH for the Makefiles, SRCARCH for
# the arch/ directory whose uapi headers they read.
case $triple in
'') arch='' srcarch=x86 cpu='' ;;
aarch64-linux-gnu) arch=arm64 srcarch=arm64 cpu=aarch64 ;;
powerpc64le-linux-gnu) arch=powerpc srcarch=powerpc cpu=powerpc64le ;;
*)
	echo "build-libperf: --cross: $triple: not aarch64-linux-gnu or powerpc64le-linux-gnu" >&2
	exit 2 ;;
esac
prefix=${1:-$top/.deps/libperf${cpu:+-$cpu}}
if [ -n "$triple" ] && ! command -v "$triple-gcc" >/dev/null; then
	echo "build-libperf: $triple-gcc: not found" >&2
	echo "hint: apt-get install gcc-$triple" >&2
	exit 1
fi
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}

if [ -f "$prefix/lib64/libperf.a" ] && [ -f "$prefix/lib64/libapi.a" ] &&
   [ -f "$prefix/lib64/pkgconfig/libperf.pc" ]; then
	exit 0
fi

if [ ! -r "$tarball" ]; then
	echo "build-libperf: $tarball: not found" >&2
	echo "hint: apt-get install linux-source-6.1" >&2
	exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# Only the parts of the tree that tools/lib/perf's Makefiles read.
top_dir=$(tar -tJf "$tarball" | head -n 1 | cut -d/ -f1)
tar -xJf "$tarball" -C "$work" \
	"$top_dir/tools/lib/perf" "$top_dir/tools/lib/api" "$top_dir/tools/include" \
	"$top_dir/tools/build" "$top_dir/tools/scripts" "$top_dir/tools/arch" \
	--wildcards "$top_dir/tools/lib/*.c" "$top_dir/tools/lib/*.h" \
	"$top_dir/scripts" "$top_dir/include/uapi" "$top_dir/arch/$srcarch/include/uapi"

src="$work/$top_dir"
mkdir -p "$prefix"
# `install` would also build the docs, which need asciidoc: name the parts.
make -s -C "$src/tools/lib/perf" prefix="$prefix" EXTRA_CFLAGS=-fPIC \
	${triple:+ARCH=$arch CROSS_COMPILE=$triple-} \
	install_lib install_headers install_pkgconfig >"$work/build.log" 2>&1 || {
	cat "$work/build.log" >&2
	exit 1
}
# libperf.a calls fdarray__* from libapi.a, which `install_lib` leaves behind.
cp "$src/tools/lib/api/libapi.a" "$prefix/lib64/libapi.a"
# memtlb links libperf statically: leave the linker no shared one to prefer.
rm -f "$prefix"/lib64/libperf.so*
echo "build-libperf: libperf installed in $prefix"
