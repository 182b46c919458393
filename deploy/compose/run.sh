#!/usr/bin/env bash
# Runs the Compose workers for real: builds the worker and Redis images from this
# machine's lockbench and redis-server, runs three workers against the Redis container,
# merges their folders, and leaves worker-0..2 and merged/ (with report.md) in OUT.
# Every container and network of the project is removed on every path.
#   deploy/compose/run.sh [OUT]    (env: LOCKBENCH=path/to/lockbench, LOCKBENCH_STRATEGIES, ...)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
compose_start compose "${1:-}"
LOCKBENCH_REDIS_IMAGE=$("$lockbench" image redis)
export LOCKBENCH_REDIS_IMAGE
export LOCKBENCH_RUN_ID=${LOCKBENCH_RUN_ID:-compose-$$-$RANDOM}
compose_project "$here/docker-compose.yaml" lockbench-compose

dc up -d redis >&2
for _ in $(seq 1 100); do
  dc logs redis 2>/dev/null | grep -q "Ready to accept connections" && break
  sleep 0.1
done
dc logs redis | grep -q "Ready to accept connections" || { echo "compose: redis did not start" >&2; dc logs redis >&2; exit 1; }

# Foreground until every worker has exited; then each one's exit code decides.
dc up --no-deps worker-0 worker-1 worker-2 >&2
compose_exits worker-0 worker-1 worker-2
dc run --rm --no-deps merge >&2
"$lockbench" report "$out/merged" >&2
echo "$out/merged"
