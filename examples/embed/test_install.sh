#!/usr/bin/env bash
# test_install.sh: ctest install.embed (docs/api.md). Installs the build
# into a temporary prefix and checks what an embedder gets:
#   - no path of the source or build tree anywhere in the installed files;
#   - every public header compiles alone, as C11 and as C++, from there;
#   - examples/embed/embed.c builds with pkg-config (shared, and static
#     with --static) and with find_package (noctua::noctua and
#     noctua::noctua_static), and each build prints the cycles and packets
#     that the installed `noctua run` prints for the same runs.
#
#   test_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/noctua-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
P=$tmp/prefix
fail() { echo "install.embed: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$P" >/dev/null
[ -x "$P/bin/noctua" ] || fail "no bin/noctua"
libdir=$(dirname "$(find "$P" -name libnoctua.a | head -n 1)")
[ -f "$libdir/libnoctua.a" ] || fail "no libnoctua.a"
soname=$(readelf -d "$libdir/libnoctua.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ -z "$soname" ] || [ ! -e "$libdir/$soname" ]; then fail "libnoctua.so has no SONAME, or no file of that name"; fi

# the libraries: the API's names only (libnoctua.so exports noc_* alone), no main
others=$(nm -D --defined-only "$libdir/libnoctua.so" | awk '$3 !~ /^noc_/ { print $3 }')
if [ -n "$others" ]; then fail "libnoctua.so exports names without noc_: $(head -5 <<<"$others" | tr '\n' ' ')"; fi
if nm "$libdir/libnoctua.a" 2>/dev/null | grep -qw 'T main'; then fail "libnoctua.a defines main"; fi

# nothing installed names the trees it was built from
for tree in "$src" "$build"; do
  if grep -rl -- "$tree" "$P" >&2; then
    fail "the files above hold the path $tree"
  fi
done

# every header alone, as C and as C++, with only the installed tree
inc=$P/include/noctua
while IFS= read -r h; do
  rel=${h#"$inc"/}
  case $rel in systemc/*) continue ;; esac # C++17 and SystemC: the systemc.example bench
  printf '#include "%s"\n' "$rel" >"$tmp/h.c"
  cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$inc" "$tmp/h.c" || fail "$rel does not compile alone (C)"
  c++ -Wall -Wextra -Werror -fsyntax-only -x c++ -I"$inc" "$tmp/h.c" || fail "$rel does not compile alone (C++)"
done < <(find "$inc" -name '*.h')

# the numbers embed.c must print: the installed noctua's own
run=$("$P/bin/noctua" run mesh:4x4)
cycles=$(awk '$1 == "cycles" { print $2; exit }' <<<"$run")
packets=$(awk '$1 == "packets" { print $2; exit }' <<<"$run")
run=$("$P/bin/noctua" run bsn:ring:4 --program broadcast)
pcycles=$(awk '$1 == "cycles" { print $2; exit }' <<<"$run")
if [ -z "$cycles" ] || [ -z "$packets" ] || [ -z "$pcycles" ]; then fail "noctua run printed no cycles or packets"; fi
want1="synthetic mesh:4x4: cycles $cycles packets $packets "
want2="program broadcast on bsn:ring:4: cycles $pcycles "

check() { # check NAME PROGRAM: its output has the numbers
  local out
  out=$("$2") || fail "$1: exit status $?"
  grep -qF -- "$want1" <<<"$out" || fail "$1: expected '$want1...', got: $out"
  grep -qF -- "$want2" <<<"$out" || fail "$1: expected '$want2...', got: $out"
  grep -q "result ok$" <<<"$out" || fail "$1: the program's result is not ok: $out"
  echo "$1: $(tr '\n' ' ' <<<"$out")"
}

export PKG_CONFIG_PATH=$libdir/pkgconfig
# shellcheck disable=SC2046 # pkg-config's words are separate arguments
cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags noctua) "$src/examples/embed/embed.c" \
  -o "$tmp/embed-pc" $(pkg-config --libs noctua) -Wl,-rpath,"$libdir"
check "pkg-config, shared" "$tmp/embed-pc"
static_libs=$(pkg-config --static --libs noctua)
static_libs=${static_libs/-lnoctua/-l:libnoctua.a} # the archive, not the .so beside it
# shellcheck disable=SC2046,SC2086
cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags noctua) "$src/examples/embed/embed.c" \
  -o "$tmp/embed-pc-static" $static_libs
check "pkg-config, static" "$tmp/embed-pc-static"
if readelf -d "$tmp/embed-pc-static" | grep -q libnoctua; then fail "the static build links libnoctua.so"; fi

for kind in shared static; do
  flag=OFF; [ "$kind" = static ] && flag=ON
  cmake -S "$src/examples/embed" -B "$tmp/cm-$kind" -DCMAKE_PREFIX_PATH="$P" -DNOCTUA_EMBED_STATIC=$flag \
    -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" >/dev/null
  cmake --build "$tmp/cm-$kind" >/dev/null
  check "find_package, $kind" "$tmp/cm-$kind/embed"
done
echo "install.embed: ok"
