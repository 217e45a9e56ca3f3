#!/bin/sh
# SPDX-License-Identifier: MIT
# Progress (issue 15): on a terminal, from the first second on, the
# iteration, phase and ETA on stderr, in place ("\r\033[K"); with TERM=dumb
# plain lines without an escape byte or \r; nothing when stderr is not a
# terminal. No timing decides: each run is long (100000 iterations) and is
# stopped with SIGINT once its first line has come, which stat reports.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || { echo "skipped: no python3"; exit 77; }

# pty TERM OUT ARGS...: memtlb with stderr on a pty (no \n -> \r\n there),
# SIGINT once a progress line has come; the pty's bytes in OUT, exit status
# in OUT.status.
pty() {
	term=$1 outf=$2
	shift 2
	TERM=$term python3 - "$outf" "$MEMTLB" "$@" <<'PY'
import os, signal, subprocess, sys, termios, time

out, argv = sys.argv[1], sys.argv[2:]
master, slave = os.openpty()
attr = termios.tcgetattr(slave)
attr[1] &= ~termios.ONLCR
termios.tcsetattr(slave, termios.TCSANOW, attr)
env = dict(os.environ)
p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=slave, env=env, start_new_session=True,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
os.close(slave)
data, deadline, sent = b"", time.time() + 120, False
os.set_blocking(master, False)
while True:
    try:
        chunk = os.read(master, 4096)
        data += chunk
    except BlockingIOError:
        chunk = None
    except OSError:
        break
    first = os.environ.get("STOP_FIRST") and b"\n" in data.split(b"iteration ", 1)[-1]
    if not sent and b"iteration " in data and (b"ETA" in data or first or
                                                time.time() > deadline):
        p.send_signal(signal.SIGINT)
        sent = True
    if not sent and time.time() > deadline:
        p.kill()
        sent = True
    if chunk is None:
        if p.poll() is not None:
            # drain what is left
            try:
                while True:
                    c = os.read(master, 4096)
                    if not c:
                        break
                    data += c
            except OSError:
                pass
            break
        time.sleep(0.05)
p.wait()
open(out, "wb").write(data)
open(out + ".status", "w").write(str(p.returncode))
PY
}

args="stat --region 16m -i 100000 --passes 1 -e minor-faults"

pty xterm "$work/tty" $args
st=$(cat "$work/tty.status")
if [ "$st" = "130" ] || [ "$st" = "-2" ]; then ok; else fail "xterm: exit $st"; fi
if grep -aq "$(printf '\r\033\\[K')memtlb: iteration [0-9]* of 100000, [a-z_0-9]*, [0-9.]* s" "$work/tty"; then
	ok
else
	fail "xterm: no progress line in place"; od -c "$work/tty" | head -20 >&2
fi
expect_grep 'ETA [0-9]+ s' "$work/tty" "xterm: an ETA"
expect_grep 'memtlb: stat: interrupted by .* after [0-9]+ of 100000 iterations' "$work/tty" \
	"xterm: the interruption said"
# every progress line fits 80 columns
if tr '\r' '\n' <"$work/tty" | sed 's/\x1b\[K//g' | awk 'length > 80 { bad = 1 } END { exit bad }'; then
	ok
else
	fail "xterm: a line past 80 columns"
fi

pty dumb "$work/dumb" $args
expect_grep '^memtlb: iteration [0-9]+ of 100000, [a-z_0-9]+, [0-9.]+ s' "$work/dumb" \
	"dumb: a plain progress line"
if LC_ALL=C grep -q "$(printf '[\033\r]')" "$work/dumb"; then
	fail "dumb: an escape or \\r byte"; od -c "$work/dumb" | head -20 >&2
else ok; fi

# A long region (1 GiB and more) says where it is from its first phase on,
# not once its first write pass is over (16g: a minute in a guest).
STOP_FIRST=1 pty dumb "$work/long" stat --region 1g -i 3 --passes 1 --backing anon -e minor-faults
first=$(grep -a -m1 'iteration ' "$work/long")
case $first in
"memtlb: iteration 1 of 3, mmap, 0."* | "memtlb: iteration 1 of 3, write_0, 0."*) ok ;;
*) fail "long region: the first progress line is \"$first\", not at its start" ;;
esac

# Not a terminal: no progress at all.
env --default-signal=INT "$MEMTLB" $args >"$work/out" 2>"$work/err" &
pid=$!
n=0
while ! ls -l /proc/$pid/fd 2>/dev/null | grep -q 'perf_event' && [ $n -lt 300 ]; do
	sleep 0.05
	n=$((n + 1))
done
sleep 1.5
kill -INT $pid
wait $pid
status=$?
expect_status 130 "not a terminal: interrupted"
if grep -q 'iteration [0-9]* of' "$work/err"; then fail "not a terminal: progress shown"; else ok; fi

finish
