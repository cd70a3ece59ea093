#!/usr/bin/env bash
# The phases of `npm test` on a clone, each timed, with the load average beside it, and the
# reporters' JSON (Vitest per file, Playwright per test) for the "CI time" table of bench/notes.md.
#   git clone /work/main /tmp/ci-X && bench/ci-time.sh /tmp/ci-X /tmp/ci-X-figures
# Needs PostgreSQL at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
set -uo pipefail
dir=$1
out=$2
mkdir -p "$out"
cd "$dir"
export CI=true TEST_DATABASE_URL=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
phase() {
  local name=$1
  shift
  echo "== $name start $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/phases.txt"
  local start end rc
  start=$(date +%s.%N)
  "$@" >"$out/$name.log" 2>&1
  rc=$?
  end=$(date +%s.%N)
  printf '%s\t%.1f s\trc=%s\tload after: %s\n' "$name" "$(echo "$end - $start" | bc)" "$rc" "$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/phases.txt"
}
phase npm-ci npm ci
phase checks npm run test:checks
phase vitest npx vitest run --reporter=default --reporter=json --outputFile.json="$out/vitest.json"
PLAYWRIGHT_JSON_OUTPUT_NAME="$out/playwright.json" phase playwright npx playwright test --reporter=list,json
