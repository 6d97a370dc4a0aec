/** League delays for crossing orders on live games (exchange-api §4.5 rule 7), in ms. */
const DELAY_SECONDS: Readonly<Record<string, number>> = {
  NFL: 3,
  UFCMMA: 3,
  NCAAF: 3,
  NCAAB: 5,
  NBA: 5,
  ATP: 8,
  WTA: 8,
};

export const DEFAULT_LIVE_DELAY_SECONDS = 10;

export function liveDelayMs(league: string): number {
  return (DELAY_SECONDS[league.toUpperCase()] ?? DEFAULT_LIVE_DELAY_SECONDS) * 1000;
}
