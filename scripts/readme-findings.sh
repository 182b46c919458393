#!/usr/bin/env bash
# Rewrites README.md's headline and findings blocks from one complete `lockbench safety` folder:
#   scripts/readme-findings.sh results/safety-all-20
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./cmd/readme-findings -readme README.md "$@"
