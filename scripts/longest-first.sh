#!/usr/bin/env bash
# Runs `go test` over packages, the longest first by the times the last run recorded,
# then records this run's: with -p N, a long package started last would run alone at the
# end while the others' slots stand idle.
#   bash scripts/longest-first.sh TIMES_FILE SEED_FILE GO_TEST_COMMAND... -- PACKAGE...
# TIMES_FILE holds "seconds package" lines (kept in Go's build cache by the Makefile, so
# every clone on a machine shares it). SEED_FILE, committed, holds one recorded run's: a
# machine's first run, with no times of its own, is ordered by it. A package neither
# names runs after the rest, in the order given. The exit status is go test's.
set -uo pipefail
[ $# -ge 4 ] || { echo "usage: longest-first.sh TIMES_FILE SEED_FILE GO_TEST_COMMAND... -- PACKAGE..." >&2; exit 2; }
times=$1 seed=$2
shift 2
cmd=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do cmd+=("$1") && shift; done
[ "${1:-}" = -- ] || { echo "longest-first.sh: no -- before the packages" >&2; exit 2; }
shift

# Each package with its recorded seconds (this machine's, else the seed's, else -1),
# sorted longest first; sort -s keeps the given order among equals.
existing() { [ -f "$1" ] && echo "$1" || echo /dev/null; }
ordered=$(printf '%s\n' "$@" |
  awk 'FILENAME != "-" { t[$2] = $1; next } { print ($0 in t ? t[$0] : -1), $0 }' \
    "$(existing "$seed")" "$(existing "$times")" - |
  sort -s -k1,1 -g -r | cut -d' ' -f2)

out=$(mktemp)
trap 'rm -f "$out"' EXIT
# shellcheck disable=SC2086 # package paths hold no spaces
"${cmd[@]}" $ordered | tee "$out"
rc=${PIPESTATUS[0]}

# ok/FAIL lines end in the package's seconds; keep the newest, and every package not run.
new=$(mktemp)
{
  awk -F'\t' '($1 ~ /^(ok|FAIL)/) && $3 ~ /s$/ { sub(/s$/, "", $3); print $3 + 0, $2 }' "$out"
  [ -f "$times" ] && cat "$times"
} | awk '!seen[$2]++' >"$new"
mv "$new" "$times" 2>/dev/null || rm -f "$new"
exit "$rc"
