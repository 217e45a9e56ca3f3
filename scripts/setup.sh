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
# in a guest to compare two real kernels (tests/cli/vm-compare.sh); they
# build the Debian package and run lintian on it (tests/cli/package.sh),
# validate KCIDB exports (python3-jsonschema) and run test-definitions'
# validate.py on the LAVA definition (tests/cli/test-definitions.sh), and
# run lkp's own split-job, job2sh, run-stats and dump-stat on the lkp job
# (tests/cli/lkp.sh: ruby and the gems lkp's lib/ requires).
test) packages="$packages gnuplot-nox libxml2-utils clang libclang-rt-14-dev
	qemu-system-x86 busybox-static linux-image-cloud-amd64 python3 valgrind
	python3-jsonschema libhwloc-dev dpkg-dev debhelper lintian
	python3-yaml python3-magic python3-pycodestyle shellcheck
	ruby ruby-activesupport ruby-git ruby-tty-command" ;;
*)
	echo "usage: $0 [run|test]" >&2
	exit 2
	;;
esac
# The tests also run memtlb on arm64 and POWER kernels under qemu, whose
# emulated PMUs those kernels drive (tests/cli/vm-arch.sh): cross compilers,
# the multiarch libraries for static cross builds, and qemu for both.
[ "$mode" != test ] || packages="$packages
	gcc-aarch64-linux-gnu gcc-powerpc64le-linux-gnu qemu-system-arm qemu-system-ppc
	libc6-dev:arm64 libpfm4-dev:arm64 libjansson-dev:arm64
	libc6-dev:ppc64el libpfm4-dev:ppc64el libjansson-dev:ppc64el"

# missing_of LIST: the packages of LIST not installed.
missing_of() {
	for p in $1; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			printf ' %s' "$p"
	done
}
# shellcheck disable=SC2086 # one package a word
native=$(printf '%s\n' $packages | grep -v : || true)
# shellcheck disable=SC2086
foreign=$(printf '%s\n' $packages | grep : || true)
missing=$(missing_of "$native")
missing_foreign=$(missing_of "$foreign")
if [ -n "$missing$missing_foreign" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup: missing packages:$missing$missing_foreign" >&2
		echo "hint: run as root, or: apt-get install$missing$missing_foreign" >&2
		exit 1
	fi
	echo "setup: installing$missing$missing_foreign"
	export DEBIAN_FRONTEND=noninteractive
	# Packages of another arch (NAME:ARCH) need that arch known to dpkg
	# and its package lists.
	# shellcheck disable=SC2086 # one package a line
	archs=$(printf '%s\n' $missing_foreign | sed -n 's/^[^:]*://p' | sort -u)
	if [ -n "$archs" ]; then
		for a in $archs; do
			dpkg --print-foreign-architectures | grep -qx "$a" ||
				dpkg --add-architecture "$a"
		done
		# A mirror caught mid-sync fails one index of many; the installs
		# below say whether what they need was among them.
		apt-get update >/dev/null || echo "setup: apt-get update: some lists failed" >&2
	fi
	# shellcheck disable=SC2086 # word splitting of the list is intended
	if [ -n "$missing" ]; then
		apt-get install -y --no-install-recommends $missing >/dev/null ||
			{ apt-get update >/dev/null || true
			  apt-get install -y --no-install-recommends $missing >/dev/null; }
	fi
	# One arch's libraries at a time, and none required: a foreign index
	# that lags the native one (libc6-dev:ARCH must match libc6) leaves
	# that arch's cross build out, and its guest tests skip (77).
	for a in $archs; do
		# shellcheck disable=SC2086
		pk=$(printf '%s\n' $missing_foreign | grep ":$a\$" | tr '\n' ' ')
		# shellcheck disable=SC2086
		apt-get install -y --no-install-recommends $pk >/dev/null 2>&1 ||
			echo "setup: $a libraries not installable now; its cross build is left out" >&2
	done
fi

"$top/scripts/build-libperf.sh" "$deps"

if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$top" -Dpkg_config_path="$deps/lib64/pkgconfig" >/dev/null
fi
ninja -C "$build" >/dev/null

# test: static memtlb for arm64 and ppc64el (cross/), and what their guests
# boot: Debian's kernel image and busybox-static of that arch, unpacked into
# .deps/vm-ARCH (not installed: a foreign kernel package would pull in that
# arch's kmod and initramfs-tools).
# cross_setup CPU DEB_ARCH VM_ARCH KERNEL_META: libperf, build-VM_ARCH/ (build-aarch64/
# for arm64), .deps/vm-VM_ARCH/{bin/busybox,boot/vmlinu*}.
cross_setup() {
	xbuild=$top/build-$1
	[ "$1" = aarch64 ] || xbuild=$top/build-$3
	"$top/scripts/build-libperf.sh" --cross "$1-linux-gnu"
	if [ ! -f "$xbuild/build.ninja" ]; then
		meson setup "$xbuild" "$top" --cross-file "$top/cross/$1-linux-gnu.ini" \
			-Dpkg_config_path="$top/.deps/libperf-$1/lib64/pkgconfig" \
			-Dtests=disabled -Dman-pages=disabled >/dev/null
	fi
	ninja -C "$xbuild" >/dev/null
	vmdir=$top/.deps/vm-$3
	if [ -x "$vmdir/bin/busybox" ] && ls "$vmdir"/boot/vmlinu* >/dev/null 2>&1; then
		return 0
	fi
	# The image the meta package names (linux-image-6.1.0-N-ARCH).
	kpkg=$(apt-cache depends "$4:$2" | sed -n 's/^ *Depends: \(linux-image-[^:]*\).*/\1/p' |
		head -n 1)
	dl=$(mktemp -d)
	chown _apt: "$dl" 2>/dev/null || true	# apt-get download drops privileges
	(cd "$dl" && apt-get download "$kpkg:$2" "busybox-static:$2" >/dev/null)
	mkdir -p "$vmdir/bin" "$vmdir/boot"
	dpkg-deb --fsys-tarfile "$dl"/busybox-static_*.deb | tar -xO ./bin/busybox >"$vmdir/bin/busybox"
	chmod 755 "$vmdir/bin/busybox"
	dpkg-deb --fsys-tarfile "$dl"/linux-image-*.deb | tar -x -C "$vmdir" --wildcards './boot/vmlinu*'
	rm -rf "$dl"
}
if [ "$mode" = test ]; then
	# Side by side: each is mostly one CPU's work (xz, the compiler).
	# An arch whose libraries could not be installed is left out.
	has_arch() {
		dpkg-query -W -f='${Status}' "libjansson-dev:$1" 2>/dev/null |
			grep -q 'install ok installed'
	}
	arm= ppc= rc=0
	if has_arch arm64; then
		cross_setup aarch64 arm64 arm64 linux-image-arm64 &
		arm=$!
	fi
	if has_arch ppc64el; then
		cross_setup powerpc64le ppc64el ppc64le linux-image-powerpc64le &
		ppc=$!
	fi
	[ -z "$arm" ] || wait "$arm" || rc=1
	[ -z "$ppc" ] || wait "$ppc" || rc=1
	[ "$rc" -eq 0 ] || { echo "setup: cross builds failed" >&2; exit 1; }
fi

case $mode in
run)
	exec "$build/memtlb" stat --region 1g
	;;
test)
	exec meson test -C "$build" --setup full --print-errorlogs
	;;
esac
