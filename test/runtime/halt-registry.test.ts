import { describe, expect, it } from 'vitest';
import { HaltRegistry } from '../../src/runtime/halt-registry.ts';
import { connectionDown, RESYNC, SHUTTING_DOWN, STARTING } from '../../src/runtime/halt-reason.ts';
import { killSwitchReason } from '../../src/orders/gate-close-reason.ts';

describe('HaltRegistry', () => {
  it('starts halted for start-up and trades once that is lifted', () => {
    const h = new HaltRegistry();
    expect(h.mode).toBe('halted');
    expect(h.reasons).toEqual([STARTING]);
    expect(h.lift(STARTING)).toBe(true);
    expect(h.mode).toBe('active');
    expect(h.reasons).toEqual([]);
  });

  it('stays halted until every reason is lifted, each by its own name', () => {
    const h = new HaltRegistry();
    h.lift(STARTING);
    expect(h.halt(connectionDown('price feed'))).toBe(true); // it was trading
    expect(h.halt(RESYNC)).toBe(false); // already halted
    expect(h.lift(connectionDown('user feed'))).toBe(false); // never given
    expect(h.lift(connectionDown('price feed'))).toBe(false);
    expect(h.mode).toBe('halted');
    expect(h.reasons).toEqual([RESYNC]);
    expect(h.lift(RESYNC)).toBe(true);
    expect(h.mode).toBe('active');
    expect(h.lift(RESYNC)).toBe(false); // lifting twice changes nothing
  });

  it('never trades again once held for good, whatever is lifted', () => {
    const h = new HaltRegistry();
    h.lift(STARTING);
    h.halt(connectionDown('price feed'));
    h.holdForGood();
    h.halt(killSwitchReason('loss limit'));
    expect(h.lift(connectionDown('price feed'))).toBe(false);
    expect(h.mode).toBe('halted');
    expect(h.reasons).toEqual([killSwitchReason('loss limit')]);
    const s = new HaltRegistry();
    s.holdForGood();
    s.halt(SHUTTING_DOWN);
    expect(s.lift(STARTING)).toBe(false);
    expect(s.mode).toBe('halted');
  });

  it("gives each strategy the strictest of the process's, the operator's and its own mode", () => {
    const h = new HaltRegistry();
    h.lift(STARTING);
    expect(h.modeOf('a')).toBe('active');
    h.setOperatorMode('reducing', 'a');
    expect(h.modeOf('a')).toBe('reducing');
    expect(h.modeOf('b')).toBe('active');
    h.setOperatorMode('halted');
    expect(h.modeOf('a')).toBe('halted');
    expect(h.modeOf('b')).toBe('halted');
    h.setOperatorMode('active');
    expect(h.modeOf('a')).toBe('reducing');
    h.halt(RESYNC);
    expect(h.modeOf('b')).toBe('halted'); // a halt wins over the operator's active
    expect(h.mode).toBe('halted'); // the operator's word is not the process's mode
  });
});
