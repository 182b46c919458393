#!/usr/bin/env bash
# Runs the Compose safety campaign for real: builds the worker image (lockbench and
# this machine's redis-server), runs three safety workers, each with its own servers
# in its container, merges their folders, and leaves safety-0..2 and merged/ (with
# results.md) in OUT. Every container of the project is removed on every path.
#   deploy/compose/safety.sh [OUT]   (env: LOCKBENCH=path/to/lockbench, LOCKBENCH_SCENARIO,
#                                     LOCKBENCH_TRIALS, LOCKBENCH_SEED)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
compose_start compose-safety "${1:-}"
compose_project "$here/safety.yaml" lockbench-safety

# Foreground until every worker has exited; then each one's exit code decides.
dc up safety-0 safety-1 safety-2 >&2
compose_exits safety-0 safety-1 safety-2
dc run --rm merge >&2
echo "$out/merged"
