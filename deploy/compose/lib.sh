# Shared by run.sh and safety.sh: the results folder, the lockbench binary, and a
# Compose project removed on every path. Source it after setting `here` and `root`.

# compose_out OUT: refuses a folder that holds anything, then creates it and prints its path.
compose_out() {
  local out=$1
  if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
    echo "compose: $out exists and is not empty: give a new folder" >&2
    exit 2
  fi
  command -v docker-compose >/dev/null || { echo "compose: docker-compose is not installed (apt-get install docker-compose)" >&2; exit 1; }
  mkdir -p "$out"
  (cd "$out" && pwd)
}

# compose_lockbench: $LOCKBENCH, or a lockbench built from this checkout.
compose_lockbench() {
  if [ -n "${LOCKBENCH:-}" ]; then
    echo "$LOCKBENCH"
    return
  fi
  local bin
  bin=$(mktemp -d)/lockbench
  (cd "$root" && go build -o "$bin" ./cmd/lockbench)
  echo "$bin"
}

# compose_start NAME OUT: sets out (OUT, or results/NAME-<time>), lockbench and the
# worker image, and exports what the Compose files read of them.
compose_start() {
  out=$(compose_out "${2:-$root/results/$1-$(date +%Y%m%d-%H%M%S)}")
  lockbench=$(compose_lockbench)
  LOCKBENCH_WORKER_IMAGE=$("$lockbench" image worker)
  export LOCKBENCH_WORKER_IMAGE LOCKBENCH_OUT=$out
}

# compose_project FILE PREFIX: names the project after this shell's pid (so a later run
# can tell a dead one's leftovers and remove them), defines dc, and removes the project
# on exit, Ctrl-C and TERM included.
compose_project() {
  compose_file=$1
  project=$2-$$
  echo "compose: project $project" >&2
  local stale
  for stale in $(docker ps -a --filter label=com.docker.compose.project --format '{{.Label "com.docker.compose.project"}}' | sort -u | grep "^$2-" || true); do
    kill -0 "${stale#"$2"-}" 2>/dev/null || dc_of "$stale" down -v --remove-orphans >/dev/null 2>&1 || true
  done
  trap 'dc_of "$project" down -v --remove-orphans >/dev/null 2>&1 || true' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

dc_of() { docker-compose --ansi never -p "$1" -f "$compose_file" "${@:2}"; }
dc() { dc_of "$project" "$@"; }

# compose_exits SERVICE...: fails naming each service whose container exited non-zero.
compose_exits() {
  local failed=0 s code
  for s in "$@"; do
    code=$(docker inspect -f '{{.State.ExitCode}}' "$(dc ps -q "$s")")
    [ "$code" = 0 ] || { echo "compose: $s exited $code" >&2; dc logs --no-color "$s" | tail -20 >&2; failed=1; }
  done
  [ "$failed" = 0 ]
}
