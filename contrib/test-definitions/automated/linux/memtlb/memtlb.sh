#!/bin/sh -e
# LAVA test case lines from one memtlb run: "name pass|skip value units", as
# test-definitions' send-to-lava.sh reads them (memtlb-report(1), EXPORTS).

if [ -r ../../lib/sh-test-lib ]; then
    . ../../lib/sh-test-lib
else
    # Outside a test-definitions tree (memtlb's own tests): the two used here.
    info_msg() { echo "INFO: $*"; }
    create_out_dir() { mkdir -p "$1"; }
fi
OUTPUT="${OUTPUT:-$(pwd)/output}"
RESULT_FILE="${OUTPUT}/result.txt"
MEMTLB="${MEMTLB:-memtlb}"
TEST="stat"
REGION=""
ITERATIONS="5"
PAGES="default"

usage() {
    echo "Usage: $0 [-t stat|sweep|probe|flush] [-r REGION] [-i ITERATIONS] [-p PAGES]" >&2
    exit 1
}

while getopts "t:r:i:p:h" o; do
    case "$o" in
        t) TEST="${OPTARG}" ;;
        r) REGION="${OPTARG}" ;;
        i) ITERATIONS="${OPTARG}" ;;
        p) PAGES="${OPTARG}" ;;
        *) usage ;;
    esac
done

case "${TEST}" in
    stat|sweep|probe|flush) ;;
    *) usage ;;
esac
create_out_dir "${OUTPUT}"
rm -f "${RESULT_FILE}"
set -- "${TEST}" -i "${ITERATIONS}" -o "${OUTPUT}/memtlb.json"
if [ -n "${REGION}" ] && { [ "${TEST}" = stat ] || [ "${TEST}" = sweep ]; }; then
    set -- "$@" --region "${REGION}"
fi
if [ "${PAGES}" != default ]; then
    set -- "$@" --pages "${PAGES}"
fi
info_msg "memtlb $*"
if "${MEMTLB}" "$@" 2>"${OUTPUT}/memtlb.log"; then
    "${MEMTLB}" report --format lava "${OUTPUT}/memtlb.json" >"${RESULT_FILE}"
else
    echo "memtlb-${TEST} fail" >"${RESULT_FILE}"
fi
cat "${RESULT_FILE}"
