#!/bin/sh
# SPDX-License-Identifier: MIT
# The Debian package: `dpkg-buildpackage -b -us -uc` on a copy of the source
# tree, then what the .deb holds: the binary, every man page, the bash
# completion, the event sets (and no stray file), memtlb-vm; no path of the
# build tree compiled into the binary; lintian without errors. Skipped when
# dpkg-dev or debhelper is missing.
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
if (cd "$work/src" && dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1; then ok; else
	fail "dpkg-buildpackage"; tail -20 "$work/build.log" >&2; finish; fi

arch=$(dpkg --print-architecture)
deb=$(ls "$work"/memtlb_*_"$arch".deb)
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' >"$work/files"
for f in /usr/bin/memtlb /usr/bin/memtlb-vm /usr/share/bash-completion/completions/memtlb; do
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

# The installed binary runs, finds its event sets, and names no build path.
dpkg-deb -x "$deb" "$work/root"
run_x() { "$work/root/usr/bin/memtlb" "$@" >"$work/out" 2>"$work/err"; }
if run_x --version; then ok; else fail "installed memtlb --version"; fi
if MEMTLB_EVENTS_PATH="$work/root/usr/share/memtlb/events" run_x list &&
   grep -q 'tlb' "$work/out"; then ok; else fail "installed memtlb list"; fi
if strings -a "$work/root/usr/bin/memtlb" | grep -q -e "$work/src" -e "$src"; then
	fail "the binary names a build path"; else ok; fi

if command -v lintian >/dev/null; then
	if lintian --fail-on error "$work"/memtlb_*_"$arch".changes >"$work/lintian" 2>&1; then ok; else
		fail "lintian errors"; grep '^E:' "$work/lintian" >&2; fi
	sed 's/^/  lintian: /' "$work/lintian"
fi
finish
