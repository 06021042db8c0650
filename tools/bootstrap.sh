#!/usr/bin/env bash
# bootstrap.sh: the README's first quick-start command. On a fresh Debian 12
# machine: install the Debian packages noctua needs (only those missing),
# configure and build into build/, and run the built-in default job.
# Options: --no-run (build only), --build-dir DIR, --viewers (also GTKWave and
# what tools/wave_screenshot.sh needs: Xvfb, xdotool, ImageMagick).
set -euo pipefail
cd "$(dirname "$0")/.."

run=1
viewers=0
build=build
while [ $# -gt 0 ]; do
  case "$1" in
    --no-run) run=0 ;;
    --viewers) viewers=1 ;;
    --build-dir) build="$2"; shift ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "bootstrap.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

# Debian packages, and why (docs/packages.md says more):
#   cmake, gcc, make, pkg-config   the build
#   libcmocka-dev                  the test suite
#   libinih-dev                    config files
#   libjansson-dev                 JSON reports
#   gnuplot-nox                    latency curves of `noctua sweep`
#   libmetis-dev                   bisection-width bounds of `noctua topo` (METIS partitioner)
#   graphviz                       pictures of `noctua draw` (neato renders the fixed layout)
#   verilator                      compiles the Verilog router core (rtl/); its include folder
#                                  carries GTKWave's FST writer, which waves/ compiles in
#   yosys                          synthesizes the core for gate counts (`noctua area`)
#   zlib1g-dev                     the FST writer (fstapi) compresses with zlib
#   libsystemc-dev                 the SystemC wrapper of a fabric (systemc/) and its bench
#   clang, libclang-rt-14-dev      the libFuzzer harnesses (testbench/fuzz/, tools/fuzz.sh,
#                                  ctest fuzz.smoke): clang's libFuzzer and sanitizer runtimes
#   (the linter) shellcheck        lints the shell scripts (ctest lint.shellcheck)
#   libopenmpi-dev, openmpi-bin    one fabric split over MPI ranks (mpirun -n R build/noctua run ...,
#                                  ctest model.ranks_same)
#   time                           /usr/bin/time: tools/scale_bench.sh's wall, CPU and memory figures
pkgs=(build-essential cmake pkg-config libcmocka-dev libinih-dev libjansson-dev gnuplot-nox
      libmetis-dev graphviz verilator yosys zlib1g-dev libsystemc-dev clang libclang-rt-14-dev
      shellcheck libopenmpi-dev openmpi-bin time)
#   with --viewers: gtkwave (the waveform viewer), xvfb, xdotool, imagemagick
#                                  (tools/wave_screenshot.sh grabs GTKWave's window)
if [ "$viewers" -eq 1 ]; then
  pkgs+=(gtkwave xvfb xdotool imagemagick)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc)"
if [ "$run" -eq 1 ]; then
  "$build/noctua"
fi
