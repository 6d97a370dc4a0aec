import type { OwnOrder } from '../market-model/types.ts';
import type { CancelEntry, EditEntry, PlaceEntry } from '../exchange/orders/types.ts';
import type { RiskVerdict } from './risk-gate.ts';

/** What the order manager tells the rest of the runtime (strategies, log, status). */
export type OrderManagerNotice =
  | {
      readonly kind: 'risk-rejected';
      readonly strategyId: string;
      readonly gameID: string;
      readonly intentKey: string;
      readonly verdict: Extract<RiskVerdict, { ok: false }>;
    }
  | { readonly kind: 'exchange-rejected'; readonly order: OwnOrder; readonly errorType: string; readonly error: string }
  | { readonly kind: 'unknown-outcome'; readonly order: OwnOrder; readonly error: string }
  /**
   * The exchange reports an order of ours cancelled that was live in our book: one we had not
   * asked to cancel (its heartbeat switch, an operator, another session) or, `asked`, one whose
   * cancel we had sent or whose state was unknown (the switch may have come first).
   */
  | {
      readonly kind: 'exchange-cancelled';
      readonly order: OwnOrder;
      readonly asked: boolean;
      readonly via: 'user feed' | 'reconciliation';
    };

/** Answers of the gateway come back as these, through the runtime's single event loop. */
export type GatewayResult =
  | { readonly kind: 'placed'; readonly clientIds: readonly string[]; readonly entries: readonly PlaceEntry[] }
  | { readonly kind: 'place-failed'; readonly clientIds: readonly string[]; readonly error: unknown }
  | { readonly kind: 'cancelled'; readonly clientIds: readonly string[]; readonly entries: readonly CancelEntry[] }
  | { readonly kind: 'cancel-failed'; readonly clientIds: readonly string[]; readonly error: unknown }
  /** An edit's answer: `replaced` is the edited order's client id, `clientId` the record of its new terms. */
  | { readonly kind: 'edited'; readonly replaced: string; readonly clientId: string; readonly entry: EditEntry }
  | { readonly kind: 'edit-failed'; readonly replaced: string; readonly clientId: string; readonly error: unknown }
  /** The answer of a cancel of every order of the account (or of one game): `clientIds` are ours it was sent for. */
  | { readonly kind: 'swept'; readonly clientIds: readonly string[]; readonly entries: readonly CancelEntry[] }
  | { readonly kind: 'heartbeat-failed'; readonly error: unknown }
  /** The exchange accepted a heartbeat sent at `sentAt` (this clock) with this timeout. */
  | { readonly kind: 'heartbeat-accepted'; readonly sentAt: number; readonly timeoutSec: number };

/** The client ids of our orders a gateway answer is about. */
export function resultClientIds(r: GatewayResult): readonly string[] {
  switch (r.kind) {
    case 'heartbeat-failed':
    case 'heartbeat-accepted':
      return [];
    case 'edited':
    case 'edit-failed':
      return [r.replaced, r.clientId];
    default:
      return r.clientIds;
  }
}
