#!/usr/bin/env bash
# Record a large sample for the backtest bench: at least a million recorded events (many
# games, many hours of exchange time) from the simulator on a virtual clock, into a cache
# directory that git ignores. Nothing here is committed; the bench and `linesmith backtest`
# read it from there.
#
#   scripts/make-large-recording.sh                 record into .cache/large-recording (skipped if it is there)
#   scripts/make-large-recording.sh --force         record it again
#   LARGE_RECORDING_DIR=/path scripts/make-large-recording.sh
#   LARGE_RECORDING_HOURS=30 scripts/make-large-recording.sh
#
# The config and scenario are written beside the recording: 36 games at once over six
# leagues, games of about an hour replaced as they end, for LARGE_RECORDING_HOURS hours of
# exchange time (default 24, about 1.1 million events with seed 7).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
dir="${LARGE_RECORDING_DIR:-$root/.cache/large-recording}"
hours="${LARGE_RECORDING_HOURS:-24}"
out="$dir/feed"
if [[ "${1:-}" == "--force" ]]; then
  rm -rf "$out"
elif [[ $# -gt 0 ]]; then
  echo "usage: $0 [--force]" >&2
  exit 2
fi
if [[ -f "$dir/done" && -d "$out" ]]; then
  echo "large recording already in $out ($(cat "$dir/done")); --force records it again"
  exit 0
fi
rm -rf "$out" "$dir/done"
mkdir -p "$dir"

cat >"$dir/large-scenario.yaml" <<'YAML'
name: large
description: Six leagues, 36 games at once on a rolling schedule, games of about an hour.
horizonMinutes: 60
pace:
  preGameMinutes: 30
leagues:
  - { league: NBA, sport: basketball, games: 6, durationMinutes: 60, teams: [Boston Celtics, New York Knicks, Denver Nuggets, Golden State Warriors, Miami Heat, Chicago Bulls, Phoenix Suns, Dallas Mavericks, Milwaukee Bucks, Los Angeles Lakers, Sacramento Kings, Orlando Magic] }
  - { league: NFL, sport: football, games: 6, durationMinutes: 70, teams: [Kansas City Chiefs, Buffalo Bills, Baltimore Ravens, Detroit Lions, San Francisco 49ers, Dallas Cowboys, Miami Dolphins, Philadelphia Eagles, Green Bay Packers, Houston Texans, Cincinnati Bengals, Los Angeles Rams] }
  - { league: NHL, sport: hockey, games: 6, durationMinutes: 60, teams: [Boston Bruins, Toronto Maple Leafs, Florida Panthers, Edmonton Oilers, New York Rangers, Dallas Stars, Colorado Avalanche, Vegas Golden Knights, Carolina Hurricanes, Winnipeg Jets, Vancouver Canucks, Tampa Bay Lightning] }
  - { league: MLB, sport: baseball, games: 6, durationMinutes: 60, teams: [New York Yankees, Los Angeles Dodgers, Atlanta Braves, Houston Astros, Philadelphia Phillies, Baltimore Orioles, Texas Rangers, Seattle Mariners, Minnesota Twins, Tampa Bay Rays, Milwaukee Brewers, San Diego Padres] }
  - { league: EPL, sport: soccer, games: 6, durationMinutes: 50, teams: [Arsenal, Manchester City, Liverpool, Chelsea, Tottenham Hotspur, Newcastle United, Aston Villa, Brighton, West Ham United, Manchester United, Brentford, Fulham] }
  - { league: MLS, sport: soccer, games: 6, durationMinutes: 50, teams: [LA Galaxy, Inter Miami, Seattle Sounders, Columbus Crew, Atlanta United, Portland Timbers, New York City FC, Philadelphia Union, Austin FC, Nashville SC, FC Cincinnati, Orlando City] }
YAML

cat >"$dir/large.yaml" <<'YAML'
paper:
  seed: 7
  scenario: large-scenario.yaml
strategies:
  - id: everything
    module: fixed-spread
risk:
  maxGameLiability: 500
  maxTotalLiability: 5000
  maxOrderSize: 100
  maxOrdersPerGame: 40
logging:
  level: warn
YAML

started=$SECONDS
node bin/linesmith.js record --paper --virtual-time --no-status --config "$dir/large.yaml" \
  --start 2026-02-01T00:00:00Z --duration "${hours}h" --max-file-size 64MB --out "$out" >/dev/null
events=$(for f in "$out"/*.jsonl.gz; do gzip -dc "$f"; done | wc -l)
echo "$events records, ${hours} h of exchange time, $(du -sh "$out" | cut -f1), recorded in $((SECONDS - started)) s" | tee "$dir/done"
