/**
 * The soak's invariant checker on doctored ledgers and evidence: each check must fail when
 * what it guards broke, and when it had nothing to check.
 */
import { describe, expect, it } from 'vitest';
import { MatchingEngine } from '../../src/engine/engine.ts';
import { createIdGenerator } from '../../src/engine/ids.ts';
import type { PlaceInput } from '../../src/engine/types.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { createRandom } from '../../src/shared/random.ts';
import { projectedWithinCaps } from '../../src/soak/exposure-invariant.ts';
import {
  faultsHadEffect,
  lapseNoticed,
  restartLeftNoOrphans,
  type FaultEffect,
  type LapseEvidence,
  type RestartEvidence,
} from '../../src/soak/fault-invariants.ts';
import { result } from '../../src/soak/invariant-result.ts';
import { SimLedger } from '../../src/soak/sim-ledger.ts';
import { AWAY, G, HOME, ml, ok, S_AWAY, S_HOME } from '../support/engine-fixture.ts';

/** A second basketball game. */
const G2 = 'aa0000000000000000000003';

const T0 = Date.UTC(2026, 4, 5, 16, 0, 0);
const HOUR = 3_600_000;
const CAPS = { maxGameLiability: 150, maxTotalLiability: 250 };

function engineWithAccount() {
  const clock = new ManualClock(T0);
  const engine = new MatchingEngine({ clock, ids: createIdGenerator(5) });
  for (const id of ['bot', 'other'])
    expect(engine.addUser({ id, balance: 1_000_000, commissionRate: 0.01 }).ok).toBe(true);
  const game = (id: string, league: string, sport: string, away: string, home: string) =>
    expect(
      engine.addGame({
        id,
        league,
        sport,
        participants: [
          { id: away, longName: `${away} A`, shortName: 'AAA' },
          { id: home, longName: `${home} H`, shortName: 'HHH' },
        ],
        start: T0 + HOUR,
      }).ok,
    ).toBe(true);
  game(G, 'NBA', 'basketball', AWAY, HOME);
  game(G2, 'NBA', 'basketball', S_AWAY, S_HOME);
  const ledger = new SimLedger(engine, 'bot');
  return { clock, engine, ledger };
}

const onG2 = (team: 'home' | 'away', odds: number, bet: number): PlaceInput => ({
  gameID: G2,
  type: 'moneyline',
  side: team === 'home' ? S_HOME : S_AWAY,
  odds,
  bet,
});

describe('the projected worst case read from the simulator ledger', () => {
  it('counts resting orders where they lose: orders past the cap with no fill at all fail the check', () => {
    const { engine, ledger } = engineWithAccount();
    // Two resting orders, 80 and 90 at risk on opposite sides: nothing filled, yet an adversary
    // filling only the losing one at each score takes at most 90; the same side twice takes 170.
    ok(engine.place('bot', [ml('home', -110, 80)])[0]);
    ok(engine.place('bot', [ml('home', -105, 90)])[0]);
    expect(ledger.fills).toHaveLength(0);
    expect(ledger.exposure.game(G)).toBeCloseTo(-170, 9);
    const r = projectedWithinCaps(ledger.exposure.samples, CAPS);
    expect(r.violations).toBe(1);
    expect(r.notes.join('\n')).toMatch(/game aa0+1 was -170\.00 \(cap −150\)/);
  });

  it('reads a fill once, whole: a maker fill never shows the bet beside the resting stake it came from', () => {
    const { engine, ledger } = engineWithAccount();
    ok(engine.place('bot', [ml('home', 120, 75)])[0]);
    ok(engine.place('bot', [ml('home', 125, 75)])[0]);
    // The other account takes both in part, then one whole: the bot's worst case stays at −150.
    ok(engine.place('other', [ml('away', -125, 30)])[0]);
    ok(engine.place('other', [ml('away', -120, 200)])[0]);
    expect(ledger.fills.filter((f) => f.origin === 'offer').length).toBeGreaterThanOrEqual(2);
    expect(Math.min(...ledger.exposure.samples.map((x) => x.game))).toBeCloseTo(-150, 9);
    expect(projectedWithinCaps(ledger.exposure.samples, CAPS).violations).toBe(0);
  });

  it('holds the total to its cap over games each within theirs', () => {
    const { engine, ledger } = engineWithAccount();
    ok(engine.place('bot', [ml('home', -110, 140)])[0]);
    ok(engine.place('bot', [onG2('away', 120, 130)])[0]);
    const r = projectedWithinCaps(ledger.exposure.samples, CAPS);
    expect(r.violations).toBe(1);
    expect(r.notes.join('\n')).toMatch(/over all games was -270\.00 \(cap −250\)/);
    // Cancelling brings it back: later readings are within, the breach stays on record.
    engine.cancelAll('bot');
    expect(ledger.exposure.total).toBe(0);
    expect(projectedWithinCaps(ledger.exposure.samples, CAPS).violations).toBe(1);
  });

  it('passes an account that stays within the caps, and fails one with no readings (nothing checked)', () => {
    const { engine, ledger } = engineWithAccount();
    ok(engine.place('bot', [ml('home', -110, 100), ml('away', 120, 100)])[0]);
    const r = projectedWithinCaps(ledger.exposure.samples, CAPS);
    expect(r.checked).toBe(2);
    expect(r.violations).toBe(0);
    const empty = projectedWithinCaps([], CAPS);
    expect(empty.violations).toBe(1);
    expect(empty.notes.join('\n')).toMatch(/nothing to check/);
  });

  it("agrees with the engine's own projected liability after every change (places, fills as maker and taker, cancels, settlement)", () => {
    const { engine, ledger, clock } = engineWithAccount();
    const rnd = createRandom(11);
    const odds = [-150, -120, -110, 100, 105, 120, 140];
    const input = (): PlaceInput => {
      const game = rnd.chance(0.7) ? G : G2;
      if (game === G2) return onG2(rnd.chance(0.5) ? 'home' : 'away', rnd.pick(odds), rnd.int(5, 60));
      switch (rnd.int(0, 2)) {
        case 0:
          return ml(rnd.chance(0.5) ? 'home' : 'away', rnd.pick(odds), rnd.int(5, 60));
        case 1:
          return {
            gameID: G,
            type: 'spread',
            side: rnd.chance(0.5) ? HOME : AWAY,
            number: rnd.pick([-3.5, -1.5, 1.5, 3.5]),
            odds: rnd.pick(odds),
            bet: rnd.int(5, 60),
          };
        default:
          return {
            gameID: G,
            type: 'total',
            side: rnd.chance(0.5) ? 'over' : 'under',
            number: rnd.pick([210.5, 215.5, 220]),
            odds: rnd.pick(odds),
            bet: rnd.int(5, 60),
          };
      }
    };
    let fills = 0;
    for (let i = 0; i < 300; i++) {
      clock.advance(1_000);
      const r = rnd.float();
      if (r < 0.45) engine.place('bot', [input()]);
      else if (r < 0.8) engine.place('other', [input()]);
      else {
        const open = engine.openOrders('bot');
        if (open.length > 0) engine.cancel('bot', rnd.pick(open).id);
      }
      fills = ledger.fills.length;
      for (const g of [G, G2]) expect(ledger.exposure.game(g)).toBeCloseTo(engine.gameProjectedLiability('bot', g), 6);
    }
    expect(fills).toBeGreaterThan(10);
    expect(new Set(ledger.fills.map((f) => f.origin))).toEqual(new Set(['offer', 'wager']));
    expect(engine.settleGame(G, { home: 110, away: 104 }).ok).toBe(true);
    expect(ledger.exposure.game(G)).toBe(0);
    expect(ledger.exposure.total).toBeCloseTo(engine.gameProjectedLiability('bot', G2), 6);
  });
});

describe('the heartbeat lapse check', () => {
  const good: LapseEvidence = {
    armedBefore: true,
    cancelled: [
      { orderID: 'o1', at: 1 },
      { orderID: 'o2', at: 1 },
    ],
    stillLive: [],
    botReported: 2,
    placedAfter: 5,
  };

  it('passes a lapse that was armed, cancelled orders, was noticed and recovered from', () => {
    expect(lapseNoticed(good).violations).toBe(0);
  });

  it('fails a bot that never heartbeated: the switch was not armed and cancelled nothing', () => {
    const r = lapseNoticed({ ...good, armedBefore: false, cancelled: [], botReported: 0 });
    expect(r.violations).toBe(2);
    expect(r.notes.join('\n')).toMatch(/nothing to check: 0 orders cancelled by the lapse/);
    expect(r.notes.join('\n')).toMatch(/not armed/);
  });

  it('fails a lapse that found nothing to cancel, one the bot did not report, and one it still holds orders of', () => {
    expect(lapseNoticed({ ...good, cancelled: [], botReported: 0 }).violations).toBe(1);
    expect(lapseNoticed({ ...good, botReported: 0 }).notes.join('\n')).toMatch(/did not report/);
    expect(lapseNoticed({ ...good, stillLive: ['o1'] }).violations).toBe(1);
    expect(lapseNoticed({ ...good, placedAfter: 0 }).violations).toBe(1);
  });
});

describe('the fault checks', () => {
  const effects: FaultEffect[] = [
    { kind: 'socket drops', injected: 5, effect: 9, effectName: 'reconnects' },
    { kind: 'malformed frames', injected: 40, effect: 38, effectName: 'frames skipped as malformed' },
  ];

  it('passes when every kind was injected and had an effect', () => {
    expect(faultsHadEffect(effects).violations).toBe(0);
  });

  it('fails a kind never injected, and one injected with no effect', () => {
    const r = faultsHadEffect([
      ...effects,
      { kind: 'token expiry', injected: 0, effect: 0, effectName: 'token rotations' },
      { kind: 'crash', injected: 1, effect: 0, effectName: 'orders the restart adopted' },
    ]);
    expect(r.violations).toBe(2);
    expect(r.notes.join('\n')).toMatch(/token expiry: never injected/);
    expect(r.notes.join('\n')).toMatch(/crash: injected 1 times with no effect \(orders the restart adopted: 0\)/);
  });

  const restart: RestartEvidence = {
    mode: 'adopt',
    found: [
      { id: 'a', userReference: 'r1' },
      { id: 'b', userReference: 'r2' },
    ],
    adopted: new Set(['a', 'b']),
    cancelled: new Set(),
    late: [],
  };

  it('fails a restart that found nothing, or adopted none of what it found', () => {
    expect(restartLeftNoOrphans(restart).violations).toBe(0);
    expect(restartLeftNoOrphans({ ...restart, found: [], adopted: new Set() }).violations).toBe(1);
    const empty = restartLeftNoOrphans({
      ...restart,
      found: [],
      adopted: new Set(),
      atCrash: { openAtSimulator: 12, readAfterMs: 250_000, switchCancelledBeforeRead: 12 },
    });
    expect(empty.notes.join('\n')).toMatch(
      /at the crash 12 orders were open at the simulator; the restart read the account 250 s of exchange time later, after the heartbeat switch had cancelled 12 of them/,
    );
    const none = restartLeftNoOrphans({ ...restart, adopted: new Set(), cancelled: new Set(['a', 'b']) });
    expect(none.notes.join('\n')).toMatch(/adopted none of them/);
    expect(
      restartLeftNoOrphans({ ...restart, mode: 'cancel', adopted: new Set(), cancelled: new Set(['a', 'b']) })
        .violations,
    ).toBe(0);
  });

  it('fails any check with nothing to check', () => {
    expect(result('x', 0, 'fills', []).violations).toBe(1);
    expect(result('x', 3, 'fills', []).violations).toBe(0);
  });
});
