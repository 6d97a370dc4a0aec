import type { EditFailure, EditInput, EditSummary, PlaceOutcome } from '../../engine/types.ts';
import type { SimUser } from '../accounts.ts';
import type { SimContext } from '../context.ts';
import { renderRestCancel } from './cancel.ts';
import { renderPlaceOutcome } from './place.ts';

/** An edit's final outcome: a place result with its edit summary, or why it was refused. */
export type EditOutcome = (PlaceOutcome & { readonly status: 'ok'; readonly edit: EditSummary }) | EditFailure;

/**
 * Edit an order for a user and wait out a live delay, so the answer is the edit's final
 * outcome. A delayed edit that finds its order gone fails like any other refusal.
 */
export async function editOrder(ctx: SimContext, user: SimUser, input: EditInput): Promise<EditOutcome> {
  const entry = ctx.engine.edit(user.id, input);
  const outcome: PlaceOutcome | EditFailure =
    entry.status === 'delayed' ? await ctx.pump.awaitTicket(entry.ticket) : entry;
  if (outcome.status === 'error') return outcome;
  if (!outcome.edit) return { status: 'error', error: 'edit could not execute', errorType: 'system_error' };
  return { ...outcome, edit: outcome.edit };
}

/**
 * The editOrder answer (`data`): the place result of the new terms plus `cancelled`, the
 * original order's terms as a cancel result (exchange-api §2.5). An amended order's old
 * terms are what the edit withdrew, so they are rendered as cancelled.
 */
export function renderEditResult(
  ctx: Pick<SimContext, 'engine'>,
  outcome: EditOutcome & { readonly status: 'ok' },
): Record<string, unknown> {
  const original = outcome.edit.original;
  const withdrawn = original.status === 'open' ? { ...original, status: 'cancelled' as const } : original;
  return {
    cancelled: renderRestCancel(ctx, { success: true, order: withdrawn }),
    ...renderPlaceOutcome(outcome, 'rest'),
  };
}
