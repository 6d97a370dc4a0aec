import { LinesmithError } from '../shared/errors.ts';

/** A route declared as authenticated ran without a user: the router's bug, answered 500. */
export class UnauthenticatedRouteError extends LinesmithError {
  override readonly code = 'LS_ERR_SIM_UNAUTHENTICATED_ROUTE';
  constructor(readonly path: string) {
    super(`route ${path} ran without an authenticated user`);
  }
}

/** The synthetic market could not set itself up (an account of its traders refused). */
export class SyntheticMarketError extends LinesmithError {
  override readonly code = 'LS_ERR_SIM_SYNTHETIC_MARKET';
}
