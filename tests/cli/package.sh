#!/bin/sh
# SPDX-License-Identifier: MIT
# The Debian package: `dpkg-buildpackage -us -uc` (source and binary) on a
# copy of the source tree as a clone has it, then what the .deb holds: the
# binary, every man page, the bash completion, the event sets (and no stray
# file), memtlb-vm, the main README as the README (contrib's among the
# examples), Built-Using naming the kernel source libperf came from; no path
# of the build tree compiled into the binary; lintian --pedantic with no tag
# left but the documented overrides (debian/*lintian-overrides). Skipped
# when dpkg-dev or debhelper is missing; setup.sh test installs them and
# lintian.
. "$(dirname "$0")/lib.sh"

src=${MEMTLB_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
# The package builds its own release binary: once per CI run is enough.
if ldd "$MEMTLB" 2>/dev/null | grep -q -e libasan -e libubsan; then
	echo "a sanitizer build: the package is built by the release build's run, skipped"
	exit 77
fi
if ! command -v dpkg-buildpackage >/dev/null || ! command -v dh >/dev/null; then
	echo "dpkg-dev or debhelper not installed: skipped"
	exit 77
fi

# The tree as a clone would have it: tracked files and untracked ones git
# does not ignore (no build directories, no .deps).
mkdir "$work/src"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$src" ls-files -z --cached --others --exclude-standard |
		(cd "$src" && xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$work/src"
else
	tar -C "$src" --exclude=./build\* --exclude=./.deps -cf - . | tar -xf - -C "$work/src"
fi
# Source and binary: the source package too must build from the tree (a
# native version: no revision, debian/source/format).
if (cd "$work/src" && dpkg-buildpackage -us -uc) >"$work/build.log" 2>&1; then ok; else
	fail "dpkg-buildpackage"; tail -20 "$work/build.log" >&2; finish; fi

arch=$(dpkg --print-architecture)
deb=$(ls "$work"/memtlb_*_"$arch".deb)
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' >"$work/files"
for f in /usr/bin/memtlb /usr/bin/memtlb-vm /usr/share/bash-completion/completions/memtlb \
	/usr/share/doc/memtlb/examples/README.md \
	/usr/share/doc/memtlb/examples/lkp-tests/programs/memtlb/run \
	/usr/share/doc/memtlb/examples/test-definitions/automated/linux/memtlb/memtlb.yaml; do
	if grep -qx "$f" "$work/files"; then ok; else fail "package: $f missing"; fi
done
for page in "$src"/man/*.scd; do
	name=$(basename "$page" .scd)
	section=${name##*.}
	if grep -qx "/usr/share/man/man$section/$name.gz" "$work/files"; then ok; else
		fail "package: man page $name missing"; fi
done
for set in "$src"/events/*.events; do
	if grep -qx "/usr/share/memtlb/events/$(basename "$set")" "$work/files"; then ok; else
		fail "package: event set $(basename "$set") missing"; fi
done
if grep '^/usr/share/memtlb/events/' "$work/files" | grep -v -e '\.events$' -e '/$' |
   grep -q .; then fail "package: a stray file among the event sets"; else ok; fi

dpkg-deb -x "$deb" "$work/root"
# /usr/share/doc/memtlb/README is memtlb's, not contrib's that once overwrote it
head1=$(cat "$work/root/usr/share/doc/memtlb/README.md"* 2>/dev/null | zcat -f | head -n 1)
if [ "$head1" = "# memtlb" ]; then ok; else fail "package: doc README is not memtlb's: $head1"; fi
# The static libperf's source package, at the version built from.
want=$(dpkg-query -W -f='${source:Package} (= ${source:Version})' linux-source-6.1)
got=$(dpkg-deb -f "$deb" Built-Using)
if [ "$got" = "$want" ]; then ok; else fail "package: Built-Using '$got', expected '$want'"; fi
if grep -q '^License: GPL-2' "$work/root/usr/share/doc/memtlb/copyright" &&
   grep -q 'tools/lib/perf' "$work/root/usr/share/doc/memtlb/copyright"; then ok; else
	fail "package: copyright says nothing of the static libperf (GPL-2)"; fi
# A native version has no revision (dpkg-source refuses 3.0 (native) with one).
version=$(dpkg-deb -f "$deb" Version)
case $version in
*-*) fail "package: native version $version has a revision" ;;
*) ok ;;
esac
if ls "$work"/memtlb_"$version".dsc "$work"/memtlb_"$version".tar.* >/dev/null 2>&1; then ok; else
	fail "package: no source package (.dsc, .tar)"; fi
# The installed binary runs, finds its event sets, and names no build path.
run_x() { "$work/root/usr/bin/memtlb" "$@" >"$work/out" 2>"$work/err"; }
if run_x --version; then ok; else fail "installed memtlb --version"; fi
if MEMTLB_EVENTS_PATH="$work/root/usr/share/memtlb/events" run_x list &&
   grep -q 'tlb' "$work/out"; then ok; else fail "installed memtlb list"; fi
if strings -a "$work/root/usr/bin/memtlb" | grep -q -e "$work/src" -e "$src"; then
	fail "the binary names a build path"; else ok; fi

# lintian at --pedantic, experimental tags too: any tag left (not
# overridden, with the reason beside it) fails; info tags (I:) as well.
if command -v lintian >/dev/null; then
	lintian --pedantic -I -E --fail-on error,warning,info,pedantic,experimental \
		"$work"/memtlb_*_"$arch".changes >"$work/lintian" 2>&1
	if grep -E '^[EWIPX]: ' "$work/lintian" >"$work/tags"; then
		fail "lintian tags"; sed 's/^/  /' "$work/tags" >&2
	else ok; fi
	sed 's/^/  lintian: /' "$work/lintian"
else
	echo "lintian not installed: not run (setup.sh test installs it)"
fi
finish
