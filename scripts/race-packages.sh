#!/usr/bin/env bash
# Prints the packages `make test` runs under the race detector; the rest run plain. A
# race needs two goroutines, so the rule asks for them: a package is raced when its own
# files (tests included) start goroutines or guard state with sync, or when its tests
# start servers (through topologies/testenv or a harness over it: labtest, lockstest,
# accounttest), whose clients and nodes run concurrently.
# A package of sequential code and tests runs the same plain, many times faster (plots
# and pure statistics took 10-20 times as long under -race).
set -euo pipefail
cd "$(dirname "$0")/.."
concurrent='^[[:space:]]*go [[:alnum:]_.]+\(|^[[:space:]]*go func|\.Go\(func|"sync"|"sync/atomic"|errgroup|topologies/testenv"|/labtest"|/lockstest"|/accounttest"'
go list -f '{{.ImportPath}} {{.Dir}} {{join .GoFiles " "}} {{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}' "$@" |
  while read -r pkg dir files; do
    [ -n "$files" ] || continue
    if (cd "$dir" && grep -qE "$concurrent" $files); then echo "$pkg"; fi
  done
