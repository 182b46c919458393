#!/usr/bin/env bash
# Ten real A/A pairs of `compare` with its defaults, as docs/compare.md reports them:
# each pair is two identical runs, one right after the other, then `compare A B`.
#   scripts/compare-aa.sh [OUT_DIR] [PAIRS]     (default /tmp/compare-aa, 10)
# Prints a markdown table (pair, single's cycles/s A -> B, compare's summary, exit)
# and how many gates failed. Needs ./lockbench (make build).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/compare-aa}
pairs=${2:-10}
bin=$PWD/lockbench
[[ -x $bin ]] || { echo "compare-aa: $bin missing: run make build first" >&2; exit 2; }
[[ $pairs =~ ^[1-9][0-9]*$ ]] || { echo "compare-aa: PAIRS=$pairs: want a positive whole number" >&2; exit 2; }
[[ -e $out ]] && { echo "compare-aa: $out exists: give a new folder, nothing is overwritten" >&2; exit 2; }
mkdir -p "$out"

runs=(--strategies single,redlock --clients 8 --keys per-client --duration 3s --progress plain)
# single's cycles/s, from the compare output's cycles/s table (old and new medians).
single_rate() { awk '/^cycles\/s/{t=1} t && /^strategy=single\//{print $2 " → " $5; exit}' "$1"; }

echo "| pair | single cycles/s A → B | compare's summary | exit |"
echo "|---|---|---|---:|"
failed=0
for i in $(seq 1 "$pairs"); do
  for side in A B; do
    "$bin" run "${runs[@]}" --out "$out/$side$i" >"$out/$side$i.log" 2>&1 ||
      { echo "compare-aa: run $side$i failed (see $out/$side$i.log; make deps installs the servers)" >&2; exit 1; }
  done
  rc=0
  "$bin" compare "$out/A$i" "$out/B$i" >"$out/compare-$i.txt" 2>&1 || rc=$?
  (( rc == 1 )) && failed=$((failed + 1))
  (( rc > 1 )) && { echo "compare-aa: compare A$i B$i exited $rc (see $out/compare-$i.txt)" >&2; exit 1; }
  echo "| $i | $(single_rate "$out/compare-$i.txt") | $(tail -n 1 "$out/compare-$i.txt") | $rc |"
done
echo
echo "$failed of $pairs gates failed (folders and compare outputs in $out)"
