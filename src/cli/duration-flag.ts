import { parseDuration } from '../shared/duration.ts';

/**
 * `--duration` and its kin: a positive duration, or a message saying what is wrong. Zero is
 * refused: a run "for 0 s" would start the simulator, open the feeds and stop at the first
 * status tick, a second later, which is never what was meant.
 */
export function positiveDuration(flag: string, text: string): number | string {
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch (err) {
    return `${flag}: ${(err as Error).message}`;
  }
  return ms > 0 ? ms : `${flag} must be longer than 0 (write e.g. 45s, 10m or 1h; leave it out to run until Ctrl-C)`;
}
