#!/usr/bin/env bash
# sanitize.sh: build noctua with AddressSanitizer and UndefinedBehaviorSanitizer
# (CMake option NOCTUA_SANITIZE; UBSan halts on its first report, ASan on its
# first error, LeakSanitizer reports leaks at exit) into a build folder of its
# own, and run the unit tests there (every test of testbench/unit, the CLI's
# included: they run the sanitized noctua). ctest sanitize.unit runs this.
#
#   tools/sanitize.sh [BUILD_DIR]      (default: build-sanitize)
#
# The RTL parts, SystemC and the fuzzers are left out of this build: the
# Verilated models are not instrumented, and the fuzzers have their own
# sanitizers (tools/fuzz.sh). Two unit tests measure memory in ways ASan
# changes, and run in the normal suite only: model.memory compares the
# memory estimates with the C library's allocation counts (mallinfo2), which
# ASan's own allocator does not keep, and cli.resources runs noctua under
# `ulimit -v`, where ASan cannot map its shadow memory. docs/reliability.md,
# "Sanitizers".
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-sanitize}
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNOCTUA_SANITIZE=ON \
  -DNOCTUA_RTL=OFF -DNOCTUA_SYSTEMC=OFF -DNOCTUA_FUZZ=OFF -DNOCTUA_MPI=OFF -Wno-dev >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
ctest --test-dir "$build" --output-on-failure --no-tests=error -j "$(nproc)" -E '^(model\.memory|cli\.resources)$'
