#!/usr/bin/env bash
# Installs what lockbench's tests and benchmarks run against, when it is missing:
# apt-get on Debian/Ubuntu as root; elsewhere, a message naming what to install.
set -euo pipefail

declare -A package_of=(
  [redis-server]=redis-server
  [redis-benchmark]=redis-tools
  [redis-cli]=redis-tools
  [faketime]=faketime # the clock scenarios preload its libfaketimeMT.so.1
  [gcc]=gcc           # builds the allocator preload libfaketime needs with redis-server
  [iptables]=iptables # container partitions: rules inside each container's network namespace
  [nsenter]=util-linux # ...entered from the host, so the containers need no capability
  [docker-compose]=docker-compose # deploy/compose: the multi-worker run CI does for real
)
# Valkey 8 (the --server valkey flavour, WAITAOF): Debian 12 has it only in bookworm-backports.
declare -A backports_package_of=(
  [valkey-server]=valkey-server
  [valkey-cli]=valkey-tools
)

missing=()
for bin in "${!package_of[@]}"; do
  command -v "$bin" >/dev/null 2>&1 || missing+=("${package_of[$bin]}")
done
# The library, not only the wrapper command, is what the clock scenarios need.
have_libfaketime=${LIBFAKETIME:-}
for lib in /usr/lib/*/faketime/libfaketimeMT.so.1 /usr/lib/faketime/libfaketimeMT.so.1; do
  [ -e "$lib" ] && have_libfaketime=$lib
done
[ -n "$have_libfaketime" ] || missing+=(faketime)
# The PostgreSQL server: Debian keeps initdb and postgres off PATH, in
# /usr/lib/postgresql/N/bin (topologies.FindPostgres looks in the same places).
have_postgres=
for dir in "${POSTGRES_BIN_DIR:-}" "$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/x)")" /usr/lib/postgresql/*/bin; do
  if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/postgres" ]; then have_postgres=$dir; fi
done
[ -n "$have_postgres" ] || missing+=(postgresql)
# ZooKeeper: Debian's jars in /usr/share/java (zookeeper.Find in backends/zookeeper looks there, or
# in $ZOOKEEPER_JAVA_DIR) and a Java to run them; the package brings both.
have_java=
if [ -n "${JAVA_HOME:-}" ]; then [ -x "$JAVA_HOME/bin/java" ] && have_java=$JAVA_HOME/bin/java
else have_java=$(command -v java 2>/dev/null || true); fi
if [ -z "$have_java" ] || [ ! -f "${ZOOKEEPER_JAVA_DIR:-/usr/share/java}/zookeeper.jar" ]; then
  missing+=(zookeeper)
fi
missing_backports=()
for bin in "${!backports_package_of[@]}"; do
  command -v "$bin" >/dev/null 2>&1 || missing_backports+=("${backports_package_of[$bin]}")
done
[ ${#missing[@]} -eq 0 ] && [ ${#missing_backports[@]} -eq 0 ] && exit 0
[ ${#missing[@]} -eq 0 ] || mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
[ ${#missing_backports[@]} -eq 0 ] || mapfile -t missing_backports < <(printf '%s\n' "${missing_backports[@]}" | sort -u)

# add_bookworm_backports writes an apt source for bookworm-backports with the URIs and
# keyring of apt's own bookworm entry, so it reaches the same mirror the machine trusts.
add_bookworm_backports() {
  local list=/etc/apt/sources.list.d/lockbench-bookworm-backports.sources
  [ -f "$list" ] && return 0
  grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/ && return 0
  local uris=http://deb.debian.org/debian keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  local own=/etc/apt/sources.list.d/debian.sources
  if [ -f "$own" ]; then
    # The stanza whose Suites name plain bookworm (not -security), read field by field.
    read -r uris keyring < <(awk -v RS= '{ u = ""; k = ""; plain = 0; field = ""
        for (i = 1; i <= NF; i++) {
          if ($i ~ /:$/) { field = $i; continue }
          if (field == "URIs:" && u == "") u = $i
          if (field == "Signed-By:" && k == "") k = $i
          if (field == "Suites:" && $i == "bookworm") plain = 1
        }
        if (plain) { print u, k; exit } }' "$own") || true
    [ -n "$uris" ] || uris=http://deb.debian.org/debian
    [ -n "$keyring" ] || keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  fi
  printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: %s\n' "$uris" "$keyring" >"$list"
}

if [ -f /etc/debian_version ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  [ ${#missing[@]} -eq 0 ] || echo "deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  if [ ${#missing[@]} -gt 0 ]; then
    apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 || {
      apt-get update -qq >/dev/null
      apt-get install -y -qq "${missing[@]}" >/dev/null
    }
  fi
  if [ ${#missing_backports[@]} -gt 0 ]; then
    echo "deps: installing ${missing_backports[*]}" >&2
    # Debian 12 ships no Valkey; later releases have it in main.
    if grep -qs '^VERSION_CODENAME=bookworm$' /etc/os-release; then
      add_bookworm_backports
      apt-get update -qq >/dev/null
      apt-get install -y -qq -t bookworm-backports "${missing_backports[@]}" >/dev/null
    else
      apt-get install -y -qq "${missing_backports[@]}" >/dev/null 2>&1 || {
        apt-get update -qq >/dev/null
        apt-get install -y -qq "${missing_backports[@]}" >/dev/null
      }
    fi
  fi
  # The package creates a cluster of its own and, where services may start (not in
  # these containers: policy-rc.d forbids it), starts it. The suite runs its own
  # servers: stop that one and keep it from starting at boot.
  if printf '%s\n' "${missing[@]}" | grep -qx postgresql && command -v pg_lsclusters >/dev/null; then
    pg_lsclusters --no-header 2>/dev/null | while read -r version cluster _port status _rest; do
      case "$status" in
        online*) echo "deps: stopping the package's own cluster $version/$cluster" >&2
                 pg_ctlcluster "$version" "$cluster" stop || true ;;
      esac
      start_conf=/etc/postgresql/$version/$cluster/start.conf
      if [ -f "$start_conf" ]; then echo manual >"$start_conf"; fi
    done
  fi
  # Debian's zookeeper package ships no service (zookeeperd does); should one have come
  # with it where services may start, stop it and keep it from starting at boot.
  if printf '%s\n' "${missing[@]}" | grep -qx zookeeper && command -v systemctl >/dev/null &&
     systemctl is-active --quiet zookeeper 2>/dev/null; then
    echo "deps: stopping the package's own zookeeper service" >&2
    systemctl stop zookeeper || true
    systemctl disable zookeeper >/dev/null 2>&1 || true
  fi
  # valkey-server's package ships a service that starts where services may: the suite
  # starts its own valkey-server processes, so stop it and keep it from starting at boot.
  if printf '%s\n' "${missing_backports[@]}" | grep -qx valkey-server && command -v systemctl >/dev/null &&
     systemctl is-active --quiet valkey-server 2>/dev/null; then
    echo "deps: stopping the package's own valkey-server service" >&2
    systemctl stop valkey-server || true
    systemctl disable valkey-server >/dev/null 2>&1 || true
  fi
  exit 0
fi

missing+=("${missing_backports[@]}")
echo "deps: missing ${missing[*]}." >&2
echo "      Install them with your package manager (Debian/Ubuntu as root: apt-get install ${missing[*]};" >&2
echo "      valkey-server and valkey-tools from bookworm-backports on Debian 12 (apt-get install -t bookworm-backports)," >&2
echo "      macOS: brew install redis postgresql zookeeper), or point REDIS_SERVER / REDIS_BENCHMARK at the binaries," >&2
echo "      POSTGRES_BIN_DIR at the directory holding initdb and postgres, and ZOOKEEPER_JAVA_DIR at the one" >&2
echo "      holding zookeeper.jar (with java on PATH or JAVA_HOME set)." >&2
exit 1
