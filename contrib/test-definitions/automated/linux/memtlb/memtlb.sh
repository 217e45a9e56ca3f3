#!/bin/sh -e
# SPDX-License-Identifier: MIT
# LAVA test case lines from one memtlb run: "name pass|skip value units", as
# test-definitions' send-to-lava.sh reads them (memtlb-report(1), EXPORTS).
# Each command is given only the options it has: probe has no iterations,
# flush's --pages is a count of pages, not a kind of page.

if [ -r ../../lib/sh-test-lib ]; then
    . ../../lib/sh-test-lib
else
    # Outside a test-definitions tree (memtlb's own tests): the ones used here.
    info_msg() { echo "INFO: $*"; }
    warn_msg() { echo "WARNING: $*" >&2; }
    error_msg() { echo "ERROR: $*" >&2; exit 1; }
    create_out_dir() { mkdir -p "$1"; }
    install_deps() { error_msg "install_deps: run in a test-definitions tree"; }
fi
OUTPUT="${OUTPUT:-$(pwd)/output}"
RESULT_FILE="${OUTPUT}/result.txt"
MEMTLB="${MEMTLB:-memtlb}"
TEST="stat"
REGION=""
ITERATIONS="5"
PAGES="default"
SKIP_INSTALL="false"
MEMTLB_GIT="${MEMTLB_GIT:-}"
MEMTLB_REF="${MEMTLB_REF:-main}"
# Debian 12's names: what memtlb's scripts/setup.sh installs to build it.
BUILD_DEPS="git ca-certificates gcc libc6-dev make pkg-config meson ninja-build xz-utils
    libpfm4-dev libjansson-dev scdoc linux-source-6.1"

usage() {
    echo "Usage: $0 [-t stat|sweep|probe|flush] [-r REGION] [-i ITERATIONS]" \
        "[-p PAGES] [-s true|false] [-g MEMTLB_GIT] [-b REF]" >&2
    exit 1
}

while getopts "t:r:i:p:s:g:b:h" o; do
    case "$o" in
        t) TEST="${OPTARG}" ;;
        r) REGION="${OPTARG}" ;;
        i) ITERATIONS="${OPTARG}" ;;
        p) PAGES="${OPTARG}" ;;
        s) SKIP_INSTALL="${OPTARG}" ;;
        g) MEMTLB_GIT="${OPTARG}" ;;
        b) MEMTLB_REF="${OPTARG}" ;;
        *) usage ;;
    esac
done

case "${TEST}" in
    stat|sweep|probe|flush) ;;
    *) usage ;;
esac

# A DUT without memtlb builds it from its git repository (Debian and Ubuntu:
# Debian does not package libperf, which memtlb builds from linux-source).
install_memtlb() {
    src="$(pwd)/memtlb-src"
    [ -n "${MEMTLB_GIT}" ] ||
        error_msg "memtlb not found and MEMTLB_GIT not set: where to build it from"
    install_deps "${BUILD_DEPS}" "${SKIP_INSTALL}"
    rm -rf "${src}"
    git clone --depth 1 --branch "${MEMTLB_REF}" "${MEMTLB_GIT}" "${src}"
    "${src}/scripts/build-libperf.sh" "${src}/.deps/libperf"
    meson setup "${src}/build" "${src}" --buildtype=release -Dtests=disabled \
        -Dman-pages=disabled -Dpkg_config_path="${src}/.deps/libperf/lib64/pkgconfig"
    ninja -C "${src}/build"
    MEMTLB="${src}/build/memtlb"
}
if ! command -v "${MEMTLB}" >/dev/null 2>&1; then
    if [ "${SKIP_INSTALL}" = true ] || [ "${SKIP_INSTALL}" = True ]; then
        error_msg "${MEMTLB}: not found, and SKIP_INSTALL is true"
    fi
    install_memtlb
fi

create_out_dir "${OUTPUT}"
rm -f "${RESULT_FILE}"
# Long options: they mean the same in every memtlb command.
set -- "${TEST}" --output "${OUTPUT}/memtlb.json"
case "${TEST}" in
    stat|sweep)
        set -- "$@" --iterations "${ITERATIONS}"
        [ -z "${REGION}" ] || set -- "$@" --region "${REGION}"
        [ "${PAGES}" = default ] || set -- "$@" --pages "${PAGES}"
        ;;
    probe)
        # the largest size probed; the huge variant: base, thp or hugetlb
        [ -z "${REGION}" ] || set -- "$@" --max "${REGION}"
        [ "${PAGES}" = default ] || set -- "$@" --pages "${PAGES}"
        ;;
    flush)
        set -- "$@" --iterations "${ITERATIONS}"
        [ "${PAGES}" = default ] ||
            info_msg "flush: PAGES=${PAGES} not used (flush invalidates base pages;" \
                "its --pages is a count)"
        ;;
esac
# probe's levels, from its CSV (memtlb-probe(1)): memtlb report takes no
# probe report yet. Per level, the first size above its step (pages, bytes)
# and the translation cost measured there.
probe_lava() {
    awk -F, 'NR > 1 && $8 != "" {
        n++
        name = $8; gsub(/[^A-Za-z0-9_-]/, "_", name)
        printf "memtlb.probe.%s.step_pages pass %s pages\n", name, $1
        printf "memtlb.probe.%s.step_bytes pass %s bytes\n", name, $2
        printf "memtlb.probe.%s.translation_ns pass %s ns\n", name, $5
    } END { printf "memtlb.probe.levels pass %d\n", n }'
}
info_msg "${MEMTLB} $*"
if [ "${TEST}" = probe ]; then
    if "${MEMTLB}" "$@" --format csv >"${OUTPUT}/memtlb.csv" 2>"${OUTPUT}/memtlb.log"; then
        probe_lava <"${OUTPUT}/memtlb.csv" >"${RESULT_FILE}"
    else
        echo "memtlb-${TEST} fail" >"${RESULT_FILE}"
        cat "${OUTPUT}/memtlb.log" >&2
    fi
elif "${MEMTLB}" "$@" 2>"${OUTPUT}/memtlb.log"; then
    "${MEMTLB}" report --format lava "${OUTPUT}/memtlb.json" >"${RESULT_FILE}"
else
    echo "memtlb-${TEST} fail" >"${RESULT_FILE}"
    cat "${OUTPUT}/memtlb.log" >&2
fi
cat "${RESULT_FILE}"
