#!/usr/bin/env bash
# shellcheck disable=SC2016 # the backquotes in printf formats are Markdown
# mutate.sh: the mutation pass (docs/testing.md). Each mutation of a list
# (tools/mutations.txt) changes one line of the sources in a small way that
# makes the model wrong; for each, this builds the changed tree and runs the
# tests: a mutation that no test notices is a hole in the suite. Nothing is
# done in the working tree: the sources are copied to a folder of their own
# (the commit HEAD by default), built once, and then each mutation is
# applied to that copy, built incrementally, tested and undone.
#
#   tools/mutate.sh [options]
#     --list FILE     the mutations (default tools/mutations.txt)
#     --only A,B,...  only the mutations with these names
#     --rev REV       copy commit REV instead of HEAD (to see what an older
#                     suite missed)
#     --tree          copy the working tree (tracked and untracked files, not
#                     ignored ones) instead of the commit HEAD
#     --all           the whole suite (RTL, SystemC, area built; only
#                     sanitize.* and fuzz.* left out) instead of the fast
#                     C-only tests
#     --exclude RE    ctest -E regular expression of tests left out
#                     (default '^(sanitize|fuzz)\.')
#     --work DIR      the folder of the copy and its build (default a new
#                     /tmp/noctua-mutate.XXXXXX, removed at the end); an
#                     existing DIR is refreshed file by file, so its build
#                     stays incremental
#     --keep          keep the work folder
#     --timeout S     ctest's limit per test, seconds (default 300)
#     -j N            build and test jobs (default 2)
#     --check         build nothing: list each mutation whose file is missing
#                     or whose find text does not occur exactly once in the
#                     sources of this checkout (exit 1 if any; ctest
#                     lint.mutant_texts)
#
# The list: blocks of `key: value` lines separated by blank lines, # for
# comments. Keys: name, file (relative to the top), find (an exact text
# that must occur exactly once in the file), repl (what replaces it), why
# (what the mutation breaks), tests (optional ctest -R regex: run only
# those), equivalent (optional: why no test can catch it; the mutant is
# still run and reported as EQUIVALENT when it survives).
#
# Output: a Markdown table, one row per mutation: the tests that failed
# (the first one first) or SURVIVED; then a summary. Exit status: 0 when
# every mutation is caught or declared equivalent, 1 when one survived, 2
# on a bad list, a mutation that does not apply or a build that fails.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
list=$top/tools/mutations.txt
check=0 only="" from=head rev=HEAD all=0 exclude='^(sanitize|fuzz)\.' work="" keep=0 timeout=300 jobs=2
while [ $# -gt 0 ]; do
  case $1 in
    --list) list=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --rev) rev=$2; shift 2 ;;
    --tree) from=tree; shift ;;
    --all) all=1; shift ;;
    --exclude) exclude=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --timeout) timeout=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    --check) check=1; shift ;;
    -h|--help) sed -n '3,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "mutate.sh: unknown option '$1' (--help)" >&2; exit 2 ;;
  esac
done
[ -r "$list" ] || { echo "mutate.sh: cannot read the list $list" >&2; exit 2; }

# ---- the list ----
names=() files=() finds=() repls=() tests=() equivs=()
add_entry() {
  [ -z "$n_name$n_file$n_find" ] && return 0
  if [ -z "$n_name" ] || [ -z "$n_file" ] || [ -z "$n_find" ] || [ "$n_has_repl" = 0 ]; then
    echo "mutate.sh: $list: the block ending at line $lineno needs name, file, find and repl" >&2
    exit 2
  fi
  if [ -z "$only" ] || [[ ",$only," == *",$n_name,"* ]]; then
    names+=("$n_name"); files+=("$n_file"); finds+=("$n_find"); repls+=("$n_repl")
    tests+=("$n_tests"); equivs+=("$n_equiv")
  fi
}
reset_entry() { n_name="" n_file="" n_find="" n_repl="" n_has_repl=0 n_tests="" n_equiv=""; }
reset_entry
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
  lineno=$((lineno + 1))
  case $line in
    '#'*) continue ;;
    '') add_entry; reset_entry; continue ;;
  esac
  key=${line%%:*} val=${line#*:}
  val=${val# }
  case $key in
    name) n_name=$val ;;
    file) n_file=$val ;;
    find) n_find=$val ;;
    repl) n_repl=$val; n_has_repl=1 ;;
    tests) n_tests=$val ;;
    equivalent) n_equiv=$val ;;
    why) ;;
    *) echo "mutate.sh: $list:$lineno: unknown key '$key'" >&2; exit 2 ;;
  esac
done <"$list"
add_entry
[ ${#names[@]} -gt 0 ] || { echo "mutate.sh: no mutation selected" >&2; exit 2; }

# the number of times the find text of mutation i occurs in its file under $1
occurrences() { FIND=${finds[$2]} perl -0ne '$c = () = /\Q$ENV{FIND}\E/g; print $c' "$1/${files[$2]}"; }

# ---- --check: every find text once in this checkout, nothing built ----
if [ $check = 1 ]; then
  stale=0
  for i in "${!names[@]}"; do
    if [ ! -f "$top/${files[$i]}" ]; then
      echo "${names[$i]}: ${files[$i]}: no such file"; stale=$((stale + 1)); continue
    fi
    count=$(occurrences "$top" "$i")
    if [ "$count" != 1 ]; then
      echo "${names[$i]}: ${files[$i]}: the find text occurs $count times"; stale=$((stale + 1))
    fi
  done
  echo "mutate.sh --check: ${#names[@]} mutations, $stale not applicable" >&2
  [ $stale = 0 ] || exit 1
  exit 0
fi

# ---- the copy ----
if [ -z "$work" ]; then
  work=$(mktemp -d /tmp/noctua-mutate.XXXXXX)
  [ $keep = 1 ] || trap 'rm -rf "$work"' EXIT
fi
src=$work/src build=$work/build
mkdir -p "$src" "$work/stage"
rm -rf "$work/stage"/* "$work/stage"/.[!.]* 2>/dev/null
if [ $from = head ]; then
  if ! git -C "$top" archive "$rev" | tar -x -C "$work/stage"; then
    echo "mutate.sh: cannot copy commit $rev" >&2
    exit 2
  fi
  what="$rev $(git -C "$top" rev-parse --short "$rev")"
else
  (cd "$top" && git ls-files -z --cached --others --exclude-standard |
     while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
     tar --null -T - -cf -) | tar -x -C "$work/stage"
  what="the working tree of $top"
fi
# refresh the copy file by file: unchanged files keep their times (and
# their objects in the build), files gone from the sources go
(cd "$work/stage" && find . -type f) | while IFS= read -r f; do
  if ! cmp -s "$work/stage/$f" "$src/$f"; then
    mkdir -p "$(dirname "$src/$f")"
    cp "$work/stage/$f" "$src/$f"
  fi
done
(cd "$src" && find . -type f) | while IFS= read -r f; do
  [ -e "$work/stage/$f" ] || rm -f "$src/$f"
done
rm -rf "$work/stage"

if [ $all = 1 ]; then
  cfg=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
  subset="the whole suite"
else
  cfg=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DNOCTUA_RTL=OFF -DNOCTUA_SYSTEMC=OFF -DNOCTUA_AREA=OFF)
  subset="the C-only tests"
fi
echo "mutate.sh: ${#names[@]} mutations of $what, $subset (ctest -E '$exclude'), in $work" >&2
log=$work/log
mkdir -p "$log"
if ! cmake -S "$src" -B "$build" "${cfg[@]}" -Wno-dev >"$log/configure.txt" 2>&1; then
  echo "mutate.sh: the copy does not configure; see $log/configure.txt" >&2
  exit 2
fi

build_it() { cmake --build "$build" -j "$jobs" >"$1" 2>&1; }
# the tests that failed in a ctest log, in ctest's order
failed_tests() { sed -n '/The following tests FAILED:/,$p' "$1" | sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) .*/\1/p'; }
run_tests() { # log [regex]
  # lint.mutant_texts is left out: in the mutated copy, the applied text is gone by design
  local args=(--test-dir "$build" -j "$jobs" --timeout "$timeout" --no-tests=error -E "$exclude|^lint\.mutant_texts\$")
  [ -n "${2:-}" ] && args+=(-R "$2")
  ctest "${args[@]}" >"$1" 2>&1
}

if ! build_it "$log/build-original.txt"; then
  echo "mutate.sh: the unmutated copy does not build; see $log/build-original.txt" >&2
  exit 2
fi
if ! run_tests "$log/test-original.txt"; then
  echo "mutate.sh: the unmutated copy fails its tests: $(failed_tests "$log/test-original.txt" | tr '\n' ' ')" >&2
  exit 2
fi

# ---- the mutations ----
survived=0 caught=0 equiv=0 broken=0
printf '| mutation | file | result |\n|---|---|---|\n'
for i in "${!names[@]}"; do
  name=${names[$i]} file=${files[$i]}
  f=$src/$file
  if [ ! -f "$f" ]; then
    printf '| %s | `%s` | NOT APPLIED: no such file |\n' "$name" "$file"
    broken=$((broken + 1)); continue
  fi
  count=$(occurrences "$src" "$i")
  if [ "$count" != 1 ]; then
    printf '| %s | `%s` | NOT APPLIED: the text occurs %s times |\n' "$name" "$file" "$count"
    broken=$((broken + 1)); continue
  fi
  cp -p "$f" "$work/original"
  FIND=${finds[$i]} REPL=${repls[$i]} perl -0pi -e 's/\Q$ENV{FIND}\E/$ENV{REPL}/' "$f"
  if ! build_it "$log/build-$name.txt"; then
    result="NOT BUILT (see $log/build-$name.txt)"
    broken=$((broken + 1))
  elif run_tests "$log/test-$name.txt" "${tests[$i]}"; then
    if [ -n "${equivs[$i]}" ]; then
      result="EQUIVALENT: ${equivs[$i]}"
      equiv=$((equiv + 1))
    else
      result="**SURVIVED**"
      survived=$((survived + 1))
    fi
  else
    ft=$(failed_tests "$log/test-$name.txt")
    first=$(printf '%s\n' "$ft" | head -1)
    more=$(printf '%s\n' "$ft" | sed '1d' | tr '\n' ' ' | sed 's/ $//; s/ /, /g')
    [ -z "$first" ] && first="ctest (see $log/test-$name.txt)"
    result="caught by $first${more:+ (also $more)}"
    caught=$((caught + 1))
  fi
  # undo: the original text, with a new time so that make rebuilds it
  cp "$work/original" "$f"
  touch "$f"
  printf '| %s | `%s` | %s |\n' "$name" "$file" "$result"
done
build_it "$log/build-restored.txt" || echo "mutate.sh: the restored copy does not build" >&2
total=${#names[@]}
printf '\n%d mutations: %d caught, %d survived, %d equivalent, %d not applied or not built.\n' \
  "$total" "$caught" "$survived" "$equiv" "$broken"
[ $broken -gt 0 ] && exit 2
[ $survived -gt 0 ] && exit 1
exit 0
