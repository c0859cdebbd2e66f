#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The module, harness, scenarios and test-runner built with AddressSanitizer and
# UndefinedBehaviorSanitizer (in build-sanitize/, beside build/), then every C++ TestSuite and
# a small run of every scenario under them. Any report fails: ASan aborts at its first error,
# UBSan is made fatal (-fno-sanitize-recover), and LeakSanitizer reports leaks at exit (the
# pinned ns-3 wheel's own allocations are suppressed: utils/sanitize-suppressions.txt).
#
#   utils/sanitize.sh              (after ./ns3 configure; .ci/run calls it)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
py="$root/.venv/bin/python"
[ -x "$py" ] || { echo "sanitize: run ./ns3 configure first (no .venv)" >&2; exit 2; }
wheel=$("$py" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")/ns3
build="$root/build-sanitize"
flags="-O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
start=$(date +%s)
cmake -S "$root" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Sanitize \
  -DCMAKE_CXX_FLAGS_SANITIZE="$flags" -DCMAKE_EXE_LINKER_FLAGS_SANITIZE="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS_SANITIZE="-fsanitize=address,undefined" \
  -DNS3_WHEEL_DIR="$wheel" -DCLUSTERNET_PYTHON="$py" -DCLUSTERNET_TCMALLOC=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
echo "sanitize: built in $(( $(date +%s) - start )) s"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=86:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=87"
export LSAN_OPTIONS="suppressions=$root/utils/sanitize-suppressions.txt:print_suppressions=0"
export CLUSTERNET_PYTHON="$py" CLUSTERNET_ROOT="$root"

runner="$build/utils/test-runner"
for suite in $("$runner" --list); do
  "$runner" --suite="$suite" >/dev/null || { echo "sanitize: TestSuite $suite failed under the sanitizers" >&2; exit 1; }
done
echo "sanitize: every TestSuite passed ($(( $(date +%s) - start )) s)"

# A small run of every scenario: each point runs in its own process of the sanitized program.
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
trace="$root/scenarios/traces/pingpong-barrier.txt"
while read -r name args; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086
  if ! "$build/scenarios/$name" $args --jobs=1 --out="$out/$name" >"$out/$name.log" 2>&1; then
    echo "sanitize: scenario $name $args failed under the sanitizers:" >&2
    grep -m5 -E "ERROR|runtime error|SUMMARY" "$out/$name.log" >&2 || tail -5 "$out/$name.log" >&2
    exit 1
  fi
done <<SMALL
bench-gige-vs-p2p --bytes=1000000
gige-mpi-netpipe --cases=sknet@1500 --stack=lampi-tcp --max-block=1024 --report=0
gige-mtu-sweep --nic=sknet --mtu=9000 --sockbuf=65536 --max-block=4096 --report=0
gige-switch-incast --senders=2
gige-tcp-netpipe --cases=sknet@1500 --max-block=4096 --report=0
gige-via-netpipe --max-block=1024 --report=0
hpvm-fm --sizes=0,1024 --reps=5 --stream-bytes=65536 --report=0
hpvm-mpi --max-block=1024 --report=0
hpvm-pio-pacing --reps=8 --report=0
hpvm-smt --report=0
lampi-latency-bandwidth --stack=lampi-tcp,lampi-gm --max-msg=4096 --reps=4 --stream-bytes=65536 --report=0
mpi-replay --trace=$trace
myrinet-clos-alltoall --hosts=16 --msg=4096
myrinet-gm-allsize --mode=uni --max-msg=4096 --stream-bytes=65536 --reps=4 --report=0
myrinet-gm-logp --sizes=none --delta=0 --max-burst=8 --reps=4 --report=0
myrinet-incast --senders=2 --msg=65536 --drain=500 --report=0
myrinet-mpich-gm --max-block=4096 --report=0
myrinet-pci-dma --report=0
myrinet-tcp-over-gm --mtu=9000 --max-block=4096 --report=0
nas-overlap --config=is.B.4 --stack=lampi-gm --steps=1 --report=0
nt-pingpong --lengths=1,1024 --repeats=4 --report=0
raw-ethernet-vs-myrinet --max-msg=1024 --stream-bytes=65536 --reps=4 --report=0
what-if --max-block=4096 --report=0
SMALL
echo "sanitize: every scenario ran clean ($(( $(date +%s) - start )) s in all)"
