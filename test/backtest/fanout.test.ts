import { describe, expect, it } from 'vitest';
import { filter, map, Subject, type Observable, type Subscription } from 'rxjs';
import { Fanout } from '../../src/backtest/venue/fanout.ts';

/** A script of subscribes and unsubscribes, some made while a value is handed out; what each subscriber saw. */
function script(source: { events$: Observable<number>; next(v: number): void }): string[] {
  const seen: string[] = [];
  const subs = new Map<string, Subscription>();
  const add = (name: string) =>
    subs.set(
      name,
      source.events$.subscribe((v) => {
        seen.push(`${name}:${v}`);
        if (name === 'a' && v === 2) add('late');
        if (name === 'a' && v === 3) subs.get('b')!.unsubscribe();
        if (name === 'c' && v === 4) subs.get('c')!.unsubscribe();
      }),
    );
  add('a');
  add('b');
  add('c');
  source.events$
    .pipe(
      filter((v) => v % 2 === 0),
      map((v) => v * 10),
    )
    .subscribe((v) => seen.push(`even:${v}`));
  for (let v = 1; v <= 6; v++) source.next(v);
  subs.get('a')!.unsubscribe();
  source.next(7);
  return seen;
}

describe('Fanout', () => {
  it('hands values out as a Subject does, subscribers coming and going during a value included', () => {
    const subject = new Subject<number>();
    const want = script({ events$: subject.asObservable(), next: (v) => subject.next(v) });
    expect(script(new Fanout<number>())).toEqual(want);
    expect(want).toContain('late:3');
    expect(want).not.toContain('late:2');
    expect(want).not.toContain('b:4');
    expect(want).not.toContain('c:5');
  });
});
