#!/usr/bin/env bash
# Times `make test` from fresh clones of HEAD, each with an empty Go module cache, while
# `make bench` runs in a loop beside it in a clone of its own: the suite must stay green
# and within its budget on a busy machine (docs/testing.md). Prints one line per run
# (result, seconds, load average seen) and exits non-zero at the first red run.
#   bash scripts/loaded-test.sh [runs]   (default 5; logs under $LOADED_DIR, else a new
#   folder under /tmp/loaded named by the time it started)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
case $runs in '' | *[!0-9]* | 0) echo "runs: want a count >= 1, got '$runs'" >&2 && exit 2 ;; esac
out=${LOADED_DIR:-/tmp/loaded/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
head=$(git rev-parse HEAD)

git clone -q . "$out/bench"
# The loop runs in a process group of its own, so that one kill stops it and its servers.
setsid bash -c "cd '$out/bench' && while :; do make bench >>'$out/bench.log' 2>&1 || sleep 5; done" &
loop=$!
sampler= tests=
# Every step may fail (a process already gone, a killed one's status): under set -e a
# failing last command of an && list would end stop() before it stopped the loop.
stop() {
  { [ -n "$sampler" ] && kill "$sampler" 2>/dev/null; } || true
  { [ -n "$tests" ] && kill -TERM -- "-$tests" 2>/dev/null && wait "$tests" 2>/dev/null; } || true
  kill -TERM -- "-$loop" 2>/dev/null || true
  wait "$loop" 2>/dev/null || true
}
trap stop EXIT
trap 'exit 130' INT TERM

for i in $(seq 1 "$runs"); do
  dir="$out/run$i"
  # Every run tests the commit the series started at, whatever lands meanwhile.
  git clone -q . "$dir" && git -C "$dir" checkout -q "$head"
  modcache=$(mktemp -d)
  (while :; do cut -d' ' -f1 /proc/loadavg; sleep 15; done) >"$dir.load" &
  sampler=$!
  start=$(date +%s)
  rc=0
  # In a process group of its own, waited for in the background: a signal to this
  # script stops the run at once, its servers with it.
  setsid bash -c "cd '$dir' && GOMODCACHE='$modcache' CI=true exec make test" >"$dir.log" 2>&1 &
  tests=$!
  wait "$tests" || rc=$?
  tests=
  took=$(($(date +%s) - start))
  kill "$sampler" 2>/dev/null; sampler=
  chmod -R u+w "$modcache" && rm -rf "$modcache"
  load=$(sort -n "$dir.load" | awk '{a[NR]=$1} END {printf "%s-%s (median %s)", a[1], a[NR], a[int((NR+1)/2)]}')
  verdict=green; [ "$rc" = 0 ] || verdict="red (exit $rc)"
  echo "run $i at ${head:0:7}: $verdict in $took s, load average $load; log $dir.log"
  [ "$rc" = 0 ] || exit 1
done
