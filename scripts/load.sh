#!/usr/bin/env bash
# Runs a command beside a CPU burner that keeps the load at twice the machine's cores: the test command must pass on
# a busy machine too (vitest.config.ts holds the tests' generous bounds).
#   bash scripts/load.sh npm test
# Installs Debian's stress-ng when it is missing. The burner stops when the command ends; the command's exit status
# is this script's.
set -euo pipefail
if [ "$#" -eq 0 ]; then
  echo "usage: bash scripts/load.sh COMMAND [ARG ...]" >&2
  exit 2
fi
if ! command -v stress-ng >/dev/null 2>&1; then
  echo "== installing stress-ng (Debian)"
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq && apt-get install -y -qq stress-ng >/dev/null
  else
    sudo apt-get update -qq && sudo apt-get install -y -qq stress-ng >/dev/null
  fi
fi
workers=$(( 2 * $(nproc) ))
echo "== stress-ng: ${workers} CPU workers at full load beside: $*"
stress-ng --cpu "${workers}" --cpu-load 100 --timeout 0 --quiet &
burner=$!
trap 'kill "${burner}" 2>/dev/null || true; wait "${burner}" 2>/dev/null || true' EXIT
set +e
"$@"
status=$?
set -e
echo "== load averages at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "${status}"
