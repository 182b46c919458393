#!/usr/bin/env bash
# Prints the packages `make test` runs under the race detector; the rest run plain. A
# race needs two goroutines in code that shares state, so the rule asks where they are:
# a package is raced when its own (non-test) files start goroutines or guard state with
# sync, or when its tests drive it through a harness that runs clients side by side
# (labtest, lockstest, accounttest: a locker or a scenario must be safe for that).
# A package of sequential code runs plain even when its tests start servers or
# goroutines of their own: the concurrent code they reach lives in packages raced in
# their own right, and plain runs the same checks many times faster (the command line's
# tests took 173 s under -race, about 50 s plain; compare's A/A tables 73 s against 5 s).
set -euo pipefail
cd "$(dirname "$0")/.."
concurrent='^[[:space:]]*go [[:alnum:]_.]+\(|^[[:space:]]*go func|\.Go\(func|"sync"|"sync/atomic"|errgroup'
harness='/labtest"|/lockstest"|/accounttest"'
go list -f '{{.ImportPath}} {{.Dir}} {{join .GoFiles " "}} | {{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}' "$@" |
  while read -r pkg dir rest; do
    code=${rest%%|*}
    all="$code ${rest#*|}"
    [ -n "${all// /}" ] || continue
    # shellcheck disable=SC2086 # the file lists are space-separated names in $dir
    if { [ -n "${code// /}" ] && (cd "$dir" && grep -qE "$concurrent" $code); } ||
      (cd "$dir" && grep -qE "$harness" $all); then
      echo "$pkg"
    fi
  done
