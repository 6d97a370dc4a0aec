import { LinesmithError } from '../shared/errors.ts';

/** An order added twice to the own book: a bug of ours, as client ids are unique per run. */
export class DuplicateOrderError extends LinesmithError {
  override readonly code = 'LS_ERR_DUPLICATE_ORDER';
  constructor(readonly clientId: string) {
    super(`order ${clientId} already known`);
  }
}

/** A change to an order the own book does not hold: a bug of ours, as callers look the order up first. */
export class UnknownOrderError extends LinesmithError {
  override readonly code = 'LS_ERR_UNKNOWN_ORDER';
  constructor(readonly clientId: string) {
    super(`unknown order ${clientId}`);
  }
}
