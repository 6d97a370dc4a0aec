import type { SimUser } from '../accounts.ts';
import type { SimRequest } from '../http/types.ts';

/** Authenticated routes always carry the user; this narrows the type. */
export function userOf(req: SimRequest): SimUser {
  if (!req.user) throw new Error(`route ${req.path} ran without an authenticated user`);
  return req.user;
}
