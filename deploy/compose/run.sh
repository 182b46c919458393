#!/usr/bin/env bash
# Runs the Compose workers for real: builds the worker and Redis images from this
# machine's lockbench and redis-server, runs three workers against the Redis container,
# merges their folders, and leaves worker-0..2 and merged/ (with report.md) in OUT.
# Every container and network of the project is removed on every path.
#   deploy/compose/run.sh [OUT]    (env: LOCKBENCH=path/to/lockbench, LOCKBENCH_STRATEGIES, ...)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/results/compose-$(date +%Y%m%d-%H%M%S)}
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  echo "compose: $out exists and is not empty: give a new folder" >&2
  exit 2
fi
command -v docker-compose >/dev/null || { echo "compose: docker-compose is not installed (apt-get install docker-compose)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

lockbench=${LOCKBENCH:-}
if [ -z "$lockbench" ]; then
  lockbench=$(mktemp -d)/lockbench
  (cd "$root" && go build -o "$lockbench" ./cmd/lockbench)
fi
LOCKBENCH_WORKER_IMAGE=$("$lockbench" image worker)
LOCKBENCH_REDIS_IMAGE=$("$lockbench" image redis)
export LOCKBENCH_WORKER_IMAGE LOCKBENCH_REDIS_IMAGE
export LOCKBENCH_RUN_ID=${LOCKBENCH_RUN_ID:-compose-$$-$RANDOM}
export LOCKBENCH_OUT=$out

# The project is named after this shell's pid, so a later run can tell a dead one's leftovers.
project=lockbench-compose-$$
echo "compose: project $project" >&2
dc() { docker-compose --ansi never -p "$1" -f "$here/docker-compose.yaml" "${@:2}"; }
for stale in $(docker ps -a --filter label=com.docker.compose.project --format '{{.Label "com.docker.compose.project"}}' | sort -u | grep '^lockbench-compose-' || true); do
  kill -0 "${stale#lockbench-compose-}" 2>/dev/null || dc "$stale" down -v --remove-orphans >/dev/null 2>&1 || true
done
cleanup() { dc "$project" down -v --remove-orphans >/dev/null 2>&1 || true; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

dc "$project" up -d redis >&2
for _ in $(seq 1 100); do
  dc "$project" logs redis 2>/dev/null | grep -q "Ready to accept connections" && break
  sleep 0.1
done
dc "$project" logs redis | grep -q "Ready to accept connections" || { echo "compose: redis did not start" >&2; dc "$project" logs redis >&2; exit 1; }

# Foreground until every worker has exited; then each one's exit code decides.
dc "$project" up --no-deps worker-0 worker-1 worker-2 >&2
failed=0
for w in worker-0 worker-1 worker-2; do
  code=$(docker inspect -f '{{.State.ExitCode}}' "$(dc "$project" ps -q "$w")")
  [ "$code" = 0 ] || { echo "compose: $w exited $code" >&2; failed=1; }
done
[ "$failed" = 0 ] || exit 1
dc "$project" run --rm --no-deps merge >&2
"$lockbench" report "$out/merged" >&2
echo "$out/merged"
