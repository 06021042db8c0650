#!/usr/bin/env bash
# fuzz.sh: build the libFuzzer harnesses of testbench/fuzz/ with clang (ASan
# and UBSan on, fabrics capped at 16384 nodes) into a build folder of their
# own, and run each for SECONDS (docs/reliability.md, "Fuzzing").
#
#   tools/fuzz.sh SECONDS [BUILD_DIR [HARNESS...]]   (default BUILD_DIR: build-fuzz;
#                                                    HARNESS: spec program goal graph anynet config, all by default)
#
# Each harness reads its seeds from testbench/fuzz/corpus/NAME (never
# written) and keeps what it finds in BUILD_DIR/corpus/NAME, so that a
# second run goes on from there; an input that breaks a property is saved as
# BUILD_DIR/crashes/NAME-crash-* with the harness's log in
# BUILD_DIR/fuzz_NAME.log. One line per harness: runs, rate, corpus size.
# Exit status: 0 every harness ran its time clean, 1 a harness failed, 2
# clang missing. ctest fuzz.smoke runs it for a few seconds a harness.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then # (libFuzzer takes 0 for no limit)
  sed -n '2,15p' "$0" >&2
  exit 2
fi
secs=$1
build=${2:-build-fuzz}
if ! command -v clang >/dev/null; then
  echo "fuzz.sh: clang is needed (Debian packages clang and libclang-rt-14-dev; tools/bootstrap.sh installs them)" >&2
  exit 2
fi
mkdir -p "$build"
build=$(cd "$build" && pwd)
harnesses=(spec program goal graph anynet config)
if [ $# -gt 2 ]; then
  harnesses=("${@:3}")
fi
CC=clang cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNOCTUA_SANITIZE=ON -DNOCTUA_FUZZERS=ON -DNOCTUA_TESTS=OFF \
  -DNOCTUA_RTL=OFF -DNOCTUA_SYSTEMC=OFF -DNOCTUA_AREA=OFF -DNOCTUA_MPI=OFF -Wno-dev >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${harnesses[@]/#/fuzz_}" >/dev/null
cd "$src" # the seeds name files of examples/ by relative paths
status=0
for h in "${harnesses[@]}"; do
  case $h in program|goal) dict=goal ;; *) dict=$h ;; esac
  mkdir -p "$build/corpus/$h" "$build/crashes"
  log=$build/fuzz_$h.log
  if "$build/testbench/fuzz/fuzz_$h" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
       -dict="testbench/fuzz/$dict.dict" -artifact_prefix="$build/crashes/$h-" \
       "$build/corpus/$h" "testbench/fuzz/corpus/$h" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    echo "fuzz_$h: ${runs:-?} runs in ${secs} s (${rate:-?}/s), corpus $(find "$build/corpus/$h" -mindepth 1 -maxdepth 1 | wc -l) inputs: clean"
  else
    echo "fuzz_$h: FAILED (see $log; the input is in $build/crashes/):"
    grep -m 5 -E 'fuzz property failed|ERROR: |SUMMARY' "$log" || tail -5 "$log"
    status=1
  fi
done
exit $status
