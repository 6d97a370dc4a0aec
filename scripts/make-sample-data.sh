#!/usr/bin/env bash
# Regenerate the sample recordings in backtest/data (see backtest/data/README.md).
#
# The sets are recorded from the simulator on a virtual clock, so the same linesmith, the
# same configs and this script give the same records (and, with the same Node and zlib, the
# same files byte for byte).
#
#   scripts/make-sample-data.sh           rewrite backtest/data/paper-seed7, paper-seed11-drops and paper-seed13-deep
#   scripts/make-sample-data.sh --check   record into a temporary directory and compare the records
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
data=backtest/data
target="$data"
if [[ "${1:-}" == "--check" ]]; then
  target="$(mktemp -d)"
  trap 'rm -rf "$target"' EXIT
elif [[ $# -gt 0 ]]; then
  echo "usage: $0 [--check]" >&2
  exit 2
fi

record() {
  local name="$1"
  shift
  rm -rf "${target:?}/$name"
  node bin/linesmith.js record --paper --virtual-time --no-status --out "$target/$name" "$@" >/dev/null
  echo "$name: $(ls "$target/$name" | wc -l) files, $(du -sh "$target/$name" | cut -f1)"
}

# Seed 7, five leagues, both feeds: two hours of exchange time from noon UTC.
record paper-seed7 --config "$data/sample.yaml" --start 2026-01-15T12:00:00Z --duration 2h --max-file-size 8MB
# Seed 11, NBA and EPL only, price feed only, every socket dropped every 20 minutes.
record paper-seed11-drops --config "$data/sample-drops.yaml" --start 2026-01-15T18:00:00Z --duration 90m \
  --drop-sockets-every 20m --no-user --max-file-size 8MB
# Seed 13, six makers stacking their quotes on two short games: the fill models differ there.
record paper-seed13-deep --config "$data/sample-deep.yaml" --start 2026-01-16T12:00:00Z --duration 20m --max-file-size 8MB

if [[ "$target" != "$data" ]]; then
  status=0
  # Compared decompressed: another zlib may compress the same records to other bytes.
  for set in paper-seed7 paper-seed11-drops paper-seed13-deep; do
    same=1
    [[ "$(ls "$data/$set")" == "$(ls "$target/$set")" ]] || same=0
    for f in "$data/$set"/*.jsonl.gz; do
      cmp -s <(gzip -dc "$f") <(gzip -dc "$target/$set/$(basename "$f")") || same=0
    done
    if [[ $same == 1 ]]; then echo "$set: same records"; else echo "$set: DIFFERS"; status=1; fi
  done
  exit "$status"
fi
