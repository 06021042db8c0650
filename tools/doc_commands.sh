#!/usr/bin/env bash
# doc_commands.sh: run every noctua command that the documentation shows, so
# that no doc can go stale (ctest docs.commands; docs/testing.md).
#
# Usage: tools/doc_commands.sh SOURCE_DIR BUILD_DIR [--rtl ON|OFF] [--area ON|OFF]
#                              [--mpi ON|OFF] [--list] [--only REGEX]
#
# It reads README.md, bench/README.md and docs/**/*.md. In every fenced code
# block that is a shell block (```sh, or ``` with no language), each line
# that starts with `build/` (the binaries of a build folder: noctua,
# noctua_bench, the testbenches), or `mpirun -n N build/`, is a command; a
# `\` at the end of a line joins the next. So is such a line of an
# indented code block (four spaces in). Lines that start with `noctua ` are commands too (the
# installed binary; run as BUILD_DIR/noctua). A line such as `noctua: ...`
# or `noctua run: ...` is the program's output and is not run. Usage
# synopses with placeholders belong in ```text blocks: a command with one
# (an upper-case word such as SPEC or FILE, `...`, or `[--option]`) fails.
#
# Every command runs in one scratch folder, in the order of the files, so a
# command can read what an earlier one of the same file wrote (a run's
# --json read by draw --load). Long work is made small, never skipped:
# synthetic runs get warmup_cycles=100 sample_cycles=500 appended (a later
# key=value wins), sweeps keep their first two rates, topo --area its first
# two fabrics (one synthesis per router size), noctua_bench runs
# --quick --only 1, the cosim and lockstep benches 2000 cycles, tb_rtl
# 20000. Commands that need the RTL core (Verilator), yosys or MPI are
# not run when the build has that part turned off (--rtl OFF, --area OFF,
# --mpi OFF), and the summary counts them.
# It also fails a doc that cites an internal issue number ("issue 12") or a
# file outside the repository (../shared/...).
# Exit 0 when every command ran and exited 0, 1 otherwise.
set -euo pipefail

usage() { sed -n '4,6p' "$0" | sed 's/^# //' >&2; exit 2; }
failed=0
[ $# -ge 2 ] || usage
src=$(cd "$1" && pwd) || exit 2
build=$(cd "$2" && pwd) || exit 2
shift 2
rtl=ON area=ON mpi=ON list=0 only=''
while [ $# -gt 0 ]; do
  case "$1" in
    --rtl) rtl=$2; shift 2 ;;
    --area) area=$2; shift 2 ;;
    --mpi) mpi=$2; shift 2 ;;
    --list) list=1; shift ;;
    --only) only=$2; shift 2 ;;
    *) usage ;;
  esac
done

# The commands, one per line: FILE<TAB>LINE<TAB>COMMAND.
extract() {
  local f
  for f in "$src/README.md" "$src/bench/README.md" $(cd "$src" && find docs -name '*.md' | sort); do
    case "$f" in /*) ;; *) f="$src/$f" ;; esac
    awk -v file="${f#"$src"/}" '
      /^```/ {
        if (!inblock) { inblock = 1; lang = substr($0, 4); gsub(/[ \t]/, "", lang); next }
        inblock = 0; next
      }
      !inblock && $0 ~ /^    (build\/|noctua [a-z])/ {   # an indented code block
        c = substr($0, 5); sub(/[ \t]+$/, "", c)
        printf "%s\t%d\t%s\n", file, NR, c; next
      }
      !inblock || (lang != "" && lang != "sh") { next }
      {
        line = $0
        if (cont != "") { cmd = cmd " " line; start = start }
        else { cmd = line; start = NR }
        if (line ~ /\\$/) { sub(/\\$/, "", cmd); cont = 1; next }
        cont = ""
        c = cmd; sub(/^[ \t]+/, "", c)
        if (c ~ /^(mpirun -n [0-9]+ )?build\// || c ~ /^noctua [a-z]+([ \t]|$)/) printf "%s\t%d\t%s\n", file, start, c
      }' "$f"
  done
}

# A command without its trailing comment (a # outside quotes).
strip_comment() {
  awk '{
    q = ""; out = ""
    for (i = 1; i <= length($0); i++) {
      ch = substr($0, i, 1)
      if (q == "" && (ch == "\"" || ch == "\x27")) q = ch
      else if (q != "" && ch == q) q = ""
      else if (q == "" && ch == "#" && (i == 1 || substr($0, i - 1, 1) ~ /[ \t]/)) break
      out = out ch
    }
    sub(/[ \t]+$/, "", out); print out
  }' <<<"$1"
}

# The command as run: binaries from the build folder, long work made small
# (under mpirun: the command it starts, on as many ranks, oversubscribed,
# root allowed).
shrink() {
  local c=$1 words
  if [[ $c =~ ^mpirun\ -n\ ([0-9]+)\ (.*)$ ]]; then
    printf 'OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -n %s --oversubscribe %s\n' \
      "${BASH_REMATCH[1]}" "$(shrink "${BASH_REMATCH[2]}")"
    return
  fi
  c=${c/#noctua /build/noctua }
  c=${c//build\//$build/}
  read -r -a words <<<"$c"
  case "${words[0]##*/} ${words[1]:-}" in
    "noctua run")
      if [[ $c != *--program* && $c != *--help* ]]; then
        c="$c warmup_cycles=100 sample_cycles=500"
      fi ;;
    "noctua sweep")
      if [[ $c =~ --rates\ ([0-9.]+):[0-9.]+:([0-9.]+) ]]; then
        c=${c/"${BASH_REMATCH[0]}"/--rates ${BASH_REMATCH[1]},$(awk "BEGIN { print ${BASH_REMATCH[1]} + ${BASH_REMATCH[2]} }")}
      fi
      c="$c warmup_cycles=100 sample_cycles=500" ;;
    "noctua topo")
      if [[ $c == *--area* ]]; then   # the first two fabrics: a synthesis per router size
        c=$(awk '{ n = 0; out = ""
          for (i = 1; i <= NF; i++) {
            if ($i ~ /:/ && i > 2 && $i !~ /^-/ && $i !~ /=/) { if (++n > 2) continue }
            out = out (out == "" ? "" : " ") $i }
          print out }' <<<"$c")
      fi ;;
    noctua_bench*)
      if [[ $c != *--list* && $c != *--help* ]]; then
        c=$(sed -E 's/--only [0-9]+//; s/--quick//' <<<"$c")
        c="$c --quick --only 1"
      fi ;;
    "tb_rtl "*)
      c=$(sed -E 's/(tb_rtl [a-z]+) [0-9]+/\1 20000/' <<<"$c") ;;
    "cosim "*|lockstep*)
      c=$(sed -E 's/(cosim|lockstep) [0-9]+/\1 2000/; s/--cycles [0-9]+/--cycles 2000/' <<<"$c") ;;
  esac
  printf '%s\n' "$c"
}

# Why a command is not run in this build, or nothing.
needs() {
  local c=$1
  if [[ $c == *"--router rtl"* || $c == *router=rtl* || $c == *cosim/* || $c == *tb_rtl* ]] && [ "$rtl" != ON ]; then
    echo "the RTL core (built with -DNOCTUA_RTL=OFF)"
  elif [[ $c == *"noctua area"* || $c == *"--area"* || $c == *router_leakage=gates* ]] && [ "$area" != ON ]; then
    echo "yosys and the RTL sources (built with -DNOCTUA_AREA=OFF or -DNOCTUA_RTL=OFF)"
  elif [[ $c == mpirun\ * ]] && [ "$mpi" != ON ]; then
    echo "MPI (built with -DNOCTUA_MPI=OFF)"
  fi
}

# A placeholder left in a command, or nothing.
placeholder() {
  local w
  for w in $1; do
    case "$w" in
      *...*|'['*|*']') echo "$w"; return ;;
    esac
    if [[ $w =~ ^[A-Z][A-Z_0-9]*$ ]]; then echo "$w"; return; fi   # SPEC, FILE, Q
  done
}

# Docs speak to users: no internal issue numbers, no files outside the
# repository (the papers are cited by title).
while IFS= read -r hit; do
  [ "$list" = 1 ] && break
  echo "FAIL $hit: docs cite an internal issue or a file outside the repository"
  failed=$((failed + 1))
done < <(cd "$src" || exit 0
         find README.md bench/README.md docs -name '*.md' -print0 | sort -z |
           xargs -0 grep -n -E '\bissue [0-9]+|\.\./shared/'
         exit 0)

work=$(mktemp -d /tmp/noctua-doc-commands.XXXXXX)
trap 'rm -rf "$work"' EXIT
ran=0 skipped=0 prev_file=''
while IFS=$'\t' read -r file line cmd; do
  [ -n "$only" ] && ! [[ "$file:$line $cmd" =~ $only ]] && continue
  cmd=$(strip_comment "$cmd")
  if [ "$list" = 1 ]; then printf '%s:%s: %s\n' "$file" "$line" "$cmd"; continue; fi
  if [ "$file" != "$prev_file" ]; then
    rm -rf "${work:?}/run" && mkdir -p "$work/run/docs/results" "$work/run/docs/fabrics" "$work/run/docs/waves"
    ln -s "$src/examples" "$work/run/examples"
    ln -s "$src/waves" "$work/run/waves" 2>/dev/null || true
    prev_file=$file
  fi
  ph=$(placeholder "$cmd")
  if [ -n "$ph" ]; then
    echo "FAIL $file:$line: '$cmd': a placeholder ($ph) in a command: give a real example, or put the synopsis in a \`\`\`text block"
    failed=$((failed + 1)); continue
  fi
  why=$(needs "$cmd")
  if [ -n "$why" ]; then
    echo "not run $file:$line: '$cmd' needs $why"
    skipped=$((skipped + 1)); continue
  fi
  run=$(shrink "$cmd")
  t0=$SECONDS
  status=0
  out=$(cd "$work/run" && timeout 300 bash -c "$run" </dev/null 2>&1) || status=$?
  took=$((SECONDS - t0))
  ran=$((ran + 1))
  if [ $status -ne 0 ]; then
    echo "FAIL $file:$line: '$cmd' exited $status after ${took} s (ran as: ${run//$build/build})"
    tail -n 5 <<<"$out" | sed 's/^/    /'
    failed=$((failed + 1))
  else
    echo "ok   $file:$line: $cmd (${took} s)"
  fi
done < <(extract)
[ "$list" = 1 ] && exit 0
echo "doc_commands: $ran commands run, $failed failed, $skipped not run (parts turned off in this build)"
[ $failed -eq 0 ] && [ $ran -gt 0 ]
