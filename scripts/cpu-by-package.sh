#!/usr/bin/env bash
# A `go test -exec` wrapper that appends each test binary's CPU seconds (user, system;
# the servers and helpers it started and reaped included), its wall seconds and its
# package's directory to $CPU_BY_PACKAGE (default /tmp/cpu-by-package.txt): what each
# package's tests cost a busy machine, where `go test` prints only their wall time.
#   GOFLAGS=-exec=$PWD/scripts/cpu-by-package.sh make test
#   awk '{printf "%.0f %s\n", $1 + $2, $4}' /tmp/cpu-by-package.txt | sort -rn | head
# Containers' processes are the engine's children, not the test's: not counted.
exec /usr/bin/time -q -a -o "${CPU_BY_PACKAGE:-/tmp/cpu-by-package.txt}" -f "%U %S %e $PWD" "$@"
