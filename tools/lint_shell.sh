#!/usr/bin/env bash
# lint_shell.sh: ctest lint.shellcheck. Every shell script of the tree
# (every file whose first line is a #! naming sh or bash) must start its
# work with `set -euo pipefail` and pass shellcheck with no finding.
#
#   tools/lint_shell.sh [SHELLCHECK]     (default: shellcheck on the PATH)
set -euo pipefail
shellcheck=${1:-shellcheck}
cd "$(dirname "$0")/.."

# the tracked files in a git checkout, else every file but build trees
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  list() { git ls-files -z --cached --others --exclude-standard; }
else
  list() { find . \( -name .git -o -name 'build*' \) -prune -o -type f -print0; }
fi
scripts=()
while IFS= read -r -d '' f; do
  [ -f "$f" ] || continue
  first=$(head -n 1 "$f" 2>/dev/null | tr -d '\0') || true
  case $first in '#!'*sh|'#!'*'sh '*) scripts+=("${f#./}") ;; esac
done < <(list)
if [ ${#scripts[@]} -eq 0 ]; then
  echo "lint_shell.sh: no shell script found" >&2
  exit 1
fi

status=0
for f in "${scripts[@]}"; do
  if ! grep -q '^set -euo pipefail$' "$f"; then
    echo "$f: no 'set -euo pipefail' line" >&2
    status=1
  fi
done
"$shellcheck" --external-sources "${scripts[@]}" || status=1
if [ "$status" -eq 0 ]; then
  echo "lint_shell.sh: ${#scripts[@]} scripts: set -euo pipefail, shellcheck clean"
fi
exit "$status"
