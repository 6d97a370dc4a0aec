import type { SimContext } from '../context.ts';

const ET_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The US-Eastern calendar day of an instant, `YYYY-MM-DD`. */
export function etDay(ms: number): string {
  return ET_DAY.format(ms);
}

/** `YYYY-MM-DD` naming a real calendar day. */
export function isCalendarDay(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/**
 * Sitewide matched volume by US-Eastern day, as getMatchedVolume reports it: every fill
 * adds both sides' stakes (the taker's stake and the maker's risk, which is what the
 * taker would win), commission not included.
 */
export class MatchedVolumeByDay {
  readonly #byDay = new Map<string, number>();

  static track(ctx: SimContext): MatchedVolumeByDay {
    const volume = new MatchedVolumeByDay();
    const unsubscribe = ctx.engine.onEvent((e) => {
      if (e.kind === 'fill') volume.add(e.fill.at, e.fill.taker.money.amount + e.fill.maker.money.amount);
    });
    ctx.hooks.onClose.push(unsubscribe);
    return volume;
  }

  add(at: number, amount: number): void {
    const day = etDay(at);
    this.#byDay.set(day, (this.#byDay.get(day) ?? 0) + amount);
  }

  /** Σ over the days in [from, to], both `YYYY-MM-DD` and inclusive. */
  between(from: string, to: string): number {
    let sum = 0;
    for (const [day, v] of this.#byDay) if (day >= from && day <= to) sum += v;
    return sum;
  }
}
