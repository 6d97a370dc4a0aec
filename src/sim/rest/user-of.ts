import type { SimUser } from '../accounts.ts';
import type { SimRequest } from '../http/types.ts';
import { UnauthenticatedRouteError } from '../errors.ts';

/** Authenticated routes always carry the user; this narrows the type. */
export function userOf(req: SimRequest): SimUser {
  if (!req.user) throw new UnauthenticatedRouteError(req.path);
  return req.user;
}
