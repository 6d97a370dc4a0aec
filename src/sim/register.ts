import type { SimContext } from './context.ts';
import type { Router } from './http/router.ts';
import type { SocketHandler } from './http/types.ts';
import { registerUserRoutes } from './rest/user-routes.ts';
import { registerExchangeRoutes } from './rest/exchange-routes.ts';
import { registerExchangeReadRoutes } from './rest/exchange-read-routes.ts';
import { registerSessionRoutes } from './rest/session-routes.ts';
import { registerBetRoutes } from './rest/bet-routes.ts';
import { registerBetLookupRoutes } from './rest/bet-lookup-routes.ts';
import { registerCancelAllRoutes } from './rest/cancel-all-routes.ts';
import { registerEditRoutes } from './rest/edit-routes.ts';
import { registerOpenApiRoute } from './rest/openapi-route.ts';
import { registerAdminRoutes } from './admin/admin-routes.ts';
import { registerFeeds } from './feeds/register-feeds.ts';
import { registerMarket } from './market/register-market.ts';

export interface RegisterDeps {
  readonly ctx: SimContext;
  readonly router: Router;
  /** Socket handlers by path (`/orders/ws`, `/v2/user`, `/price-stream`). */
  readonly sockets: Map<string, SocketHandler>;
  readonly traders: boolean;
  readonly scenario: unknown;
}

/** Mount every part of the simulator. Order matters only for hooks: feeds before the market. */
export function registerAll(deps: RegisterDeps): void {
  registerUserRoutes(deps);
  registerExchangeRoutes(deps);
  registerSessionRoutes(deps);
  registerBetRoutes(deps);
  registerCancelAllRoutes(deps);
  registerEditRoutes(deps);
  registerBetLookupRoutes(deps);
  registerExchangeReadRoutes(deps);
  registerOpenApiRoute(deps);
  registerAdminRoutes(deps);
  registerFeeds(deps);
  registerMarket(deps);
}
