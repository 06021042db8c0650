#!/usr/bin/env bash
# bench.sh: build noctua_bench optimised (RelWithDebInfo, -O2 -g) and run it.
# Usage: tools/bench.sh [--build-dir DIR] [noctua_bench options...]
# e.g. tools/bench.sh --quick; tools/bench.sh --json bench.json.
# bench/README.md says what it measures.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
if [ "${1:-}" = "--build-dir" ]; then
  build="$2"
  shift 2
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc)" --target noctua_bench >/dev/null
exec "$build/noctua_bench" "$@"
