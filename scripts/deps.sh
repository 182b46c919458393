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
[ ${#missing[@]} -eq 0 ] && exit 0
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)

if [ -f /etc/debian_version ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 || {
    apt-get update -qq >/dev/null
    apt-get install -y -qq "${missing[@]}" >/dev/null
  }
  exit 0
fi

echo "deps: missing ${missing[*]}." >&2
echo "      Install them with your package manager (Debian/Ubuntu as root: apt-get install ${missing[*]}," >&2
echo "      macOS: brew install redis), or point REDIS_SERVER / REDIS_BENCHMARK at the binaries." >&2
exit 1
