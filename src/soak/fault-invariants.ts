import { result, type InvariantResult } from './invariant-result.ts';

export interface RestartEvidence {
  /** What the second bot does with the orders it finds: adopt them, or cancel them. */
  readonly mode: 'adopt' | 'cancel';
  /** The second bot's start-up read of the account's open orders. */
  readonly found: readonly { readonly id: string; readonly userReference: string | null }[];
  /** Of those, the ids its own book held right after start-up. */
  readonly adopted: ReadonlySet<string>;
  /** Of those, the ids the simulator saw cancelled by the account after the restart. */
  readonly cancelled: ReadonlySet<string>;
  /** Orders of the crashed bot that reached the book after it died (its requests in flight). */
  readonly late: readonly {
    readonly id: string;
    readonly userReference: string | null;
    readonly known: boolean;
    readonly openAtShutdown: boolean;
  }[];
  /** What the crash met, so a restart that found nothing says why. */
  readonly atCrash?: {
    /** The account's open orders at the simulator at the crash. */
    readonly openAtSimulator: number;
    /** Exchange ms from the crash to the second bot's start-up read of the account. */
    readonly readAfterMs: number;
    /** Orders the heartbeat switch cancelled between the crash and that read. */
    readonly switchCancelledBeforeRead: number;
  };
}

/**
 * The restart adopted (or, told to, cancelled) every order it found, and left no late order
 * of the dead bot unmanaged. A restart that found nothing, or took care of nothing, tested nothing.
 */
export function restartLeftNoOrphans(e: RestartEvidence): InvariantResult {
  const broken: string[] = [];
  let adopted = 0;
  let cancelled = 0;
  for (const o of e.found) {
    if (e.adopted.has(o.id)) adopted++;
    else if (e.cancelled.has(o.id)) cancelled++;
    else
      broken.push(
        `order ${o.id} (${o.userReference ?? 'no reference'}) found at restart was neither adopted nor cancelled`,
      );
  }
  if (e.found.length > 0 && (e.mode === 'adopt' ? adopted : cancelled) === 0)
    broken.push(
      `the restart found ${e.found.length} open orders and ${e.mode === 'adopt' ? 'adopted' : 'cancelled'} none of them`,
    );
  let lateKnown = 0;
  for (const o of e.late) {
    if (o.known) lateKnown++;
    else if (o.openAtShutdown)
      broken.push(
        `order ${o.id} (${o.userReference ?? 'no reference'}) of the crashed bot reached the book after the crash and rested unmanaged`,
      );
  }
  return result(
    'restart adopted or cancelled every order it found',
    e.found.length,
    'orders found open at the restart',
    broken,
    [
      `found ${e.found.length} open at restart: adopted ${adopted}, cancelled ${cancelled}; ` +
        `${e.late.length} arrived after the crash (${lateKnown} adopted from the user feed)`,
      ...(e.atCrash
        ? [
            `at the crash ${e.atCrash.openAtSimulator} orders were open at the simulator; the restart read the account ` +
              `${(e.atCrash.readAfterMs / 1000).toFixed(0)} s of exchange time later, after the heartbeat switch had ` +
              `cancelled ${e.atCrash.switchCancelledBeforeRead} of them`,
          ]
        : []),
    ],
  );
}

export interface LapseEvidence {
  /** The exchange's dead man's switch was armed (by the bot's heartbeats) when the bot began holding them back. */
  readonly armedBefore: boolean;
  /** Orders the simulator's dead man's switch cancelled during the lapse. */
  readonly cancelled: readonly { readonly orderID: string; readonly at: number }[];
  /** Of those, the ones the bot still counted as live when checked (at the crash). */
  readonly stillLive: readonly string[];
  /** Orders the bot itself reported as cancelled by the exchange's heartbeat switch. */
  readonly botReported: number;
  /** How the bot held the orders the switch cancelled, at that moment (status → count). */
  readonly botHeld?: Readonly<Record<string, number>>;
  /** Orders the bot placed after the lapse, before the crash. */
  readonly placedAfter: number;
}

/**
 * The lapse happened as a lapse: the switch was armed, it fired and cancelled orders, the
 * bot noticed (said so, and holds none of them as live), and quoted again. A switch that was
 * never armed cancels nothing, which is not the same as one that fired.
 */
export function lapseNoticed(e: LapseEvidence): InvariantResult {
  const broken = e.stillLive.map(
    (id) => `order ${id} cancelled by the heartbeat lapse is still live in the bot's book`,
  );
  if (!e.armedBefore)
    broken.push(
      "the dead man's switch was not armed when the bot began holding its heartbeats back: the bot never heartbeated",
    );
  if (e.botReported === 0 && e.cancelled.length > 0)
    broken.push('the bot did not report the orders the heartbeat switch cancelled');
  if (e.placedAfter === 0) broken.push('the bot placed nothing after the heartbeat lapse');
  return result(
    'heartbeat armed, lapse cancelled orders, bot noticed and quoted again',
    e.cancelled.length,
    'orders cancelled by the lapse',
    broken,
    [
      `switch armed before the lapse: ${e.armedBefore ? 'yes' : 'no'}; the bot reported ${e.botReported} ` +
        `orders cancelled by it; ${e.placedAfter} orders placed after the lapse`,
      ...(e.botHeld
        ? [
            `the bot held them, when the switch fired, as: ${
              Object.entries(e.botHeld)
                .map(([k, n]) => `${k} ${n}`)
                .join(', ') || 'none'
            }`,
          ]
        : []),
    ],
  );
}

/** One kind of fault: how often the simulator (or the soak) injected it, and what it did to the bots. */
export interface FaultEffect {
  readonly kind: string;
  readonly injected: number;
  /** What the bots saw of it, counted on their side (reconnects, retries, …). */
  readonly effect: number;
  readonly effectName: string;
}

/** Every fault kind was injected, and every one had an effect on the bots. */
export function faultsHadEffect(faults: readonly FaultEffect[]): InvariantResult {
  const broken: string[] = [];
  for (const f of faults) {
    if (f.injected === 0) broken.push(`${f.kind}: never injected`);
    else if (f.effect === 0) broken.push(`${f.kind}: injected ${f.injected} times with no effect (${f.effectName}: 0)`);
  }
  return result('every fault kind injected and had an effect', faults.length, 'fault kinds', broken, [
    faults.map((f) => `${f.kind} ${f.injected} → ${f.effectName} ${f.effect}`).join('; '),
  ]);
}
