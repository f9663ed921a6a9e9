import Koa, { type Middleware } from 'koa';
import Router from '@koa/router';
import type { Platform } from '../platform.js';
import { jsonBody } from './body.js';
import type { Access, AppContext, AppCustom, AppRouter, AppState } from './context.js';
import { clientIp } from './client-address.js';
import { refuseWhileDatabaseDown } from './database-outage.js';
import { BODY_LIMIT, PAGE_FORM, TAKES_FORM, TAKES_MULTIPART } from './endpoint.js';
import { errorEnvelope } from './errors.js';
import { requestId } from './request-id.js';
import { requestLog } from './request-log.js';
import { unmatched } from './unmatched.js';
import { SCRIPTS_PATH, scriptRoutes } from './ui/scripts.js';

/**
 * A router at its mount path (`/v1/coupons`, `/health`). A `probe` (`/health`, `/ready`) answers
 * for itself while the database is down, where every other request is refused at once.
 */
export type MountedRouter = { path: string; router: AppRouter; probe?: boolean };

/**
 * A website served on hosts of its own (the shop: `<subdomain>.<STOREFRONT_BASE_DOMAIN>`): a
 * request it claims is its own, from its body to its error pages, and never reaches the API's
 * routes. It still gets the request id, the request log and the modules' guards.
 */
export type HostSite = { claims(ctx: AppContext): boolean; handle: Middleware<AppState, AppCustom> };

const segments = (path: string) => path.split('/').filter(Boolean).length;

/**
 * The web application. It never listens: web.ts (and the tests) do. `mounts` come from the
 * modules (src/boot.ts); `access` is how callers are resolved (authenticators by token prefix,
 * the stores domain's store access).
 *
 * Mounts that share a prefix are tried narrowest first (`/v1/products/gift-cards` before
 * `/v1/products`, whose `/:id` would also match), each router at its own prefix so one
 * router's checks never run for another's routes. A path under no mount is a JSON 404. A host
 * site (`sites`, the modules' `site`) takes the requests it claims before any of that.
 */
export function createApp(
  platform: Platform,
  options: { mounts: readonly MountedRouter[]; access: Access; sites?: readonly HostSite[] },
): Koa<AppState, AppCustom> {
  // Behind TRUST_PROXY_HOPS proxies of ours the client is that many X-Forwarded-For entries
  // from the right; everything further left is whatever the client sent (see client-address.ts).
  const { trustProxy, proxyHops } = platform.config.http;
  const app = new Koa<AppState, AppCustom>({ proxy: trustProxy, maxIpsCount: proxyHops });
  app.silent = true; // errors are logged by errorEnvelope, once
  app.context.access = options.access;
  const root = new Router<AppState, AppCustom>();
  // The platform's own browser scripts (src/http/ui/scripts.ts) are the toolkit's, beside every module's mounts.
  const mounts = [...options.mounts, { path: SCRIPTS_PATH, router: scriptRoutes() }];
  const ordered = [...mounts].sort((a, b) => segments(b.path) - segments(a.path));
  for (const { path, router } of ordered) root.use(path, router.routes(), router.allowedMethods());

  // The routes a request is for, looked up once (tens of µs over every route) for all the body rules below.
  const matches = new WeakMap<AppContext, ReturnType<typeof root.match>>();
  const matchOf = (ctx: AppContext) => {
    let found = matches.get(ctx);
    if (!found) matches.set(ctx, (found = root.match(ctx.path, ctx.method)));
    return found;
  };
  // Whether the route a request is for declared what it takes (multipart/form-data, a form, a page's own form).
  const routeMarked = (marker: symbol) => (ctx: AppContext) =>
    matchOf(ctx).pathAndMethod.some((layer) => layer.stack.some((fn) => (fn as unknown as Record<symbol, true | undefined>)[marker]));
  const takesMultipart = routeMarked(TAKES_MULTIPART);
  const takesForm = routeMarked(TAKES_FORM);
  const readsOwnForm = routeMarked(PAGE_FORM);
  // A route's own (larger) JSON body limit, if it declares one.
  const routeLimit = (ctx: AppContext) => {
    const limits = matchOf(ctx)
      .pathAndMethod.flatMap((layer) => layer.stack.map((fn) => (fn as unknown as Record<symbol, number | undefined>)[BODY_LIMIT]))
      .filter((n): n is number => typeof n === 'number');
    return limits.length > 0 ? Math.max(...limits) : null;
  };

  app.use(requestId());
  app.use(requestLog(platform));
  app.use(errorEnvelope(platform.log));
  const sites = options.sites ?? [];
  app.use(
    refuseWhileDatabaseDown(platform, {
      probes: options.mounts.filter((m) => m.probe).map((m) => m.path),
      page: (ctx) => sites.some((s) => s.claims(ctx)),
    }),
  );
  // The modules' guards (blocked address ranges) refuse a request before its body is read or any route runs.
  const guards = options.access.requestGuards;
  if (guards.length > 0) {
    app.use(async (ctx, next) => {
      for (const guard of guards) await guard(platform, { ip: clientIp(ctx) });
      await next();
    });
  }
  if (sites.length > 0) {
    app.use(async (ctx, next) => {
      const site = sites.find((s) => s.claims(ctx));
      return site ? site.handle(ctx, next) : next();
    });
  }
  app.use(unmatched);
  for (const mw of jsonBody(platform.config.http.bodyLimitBytes, { takesMultipart, takesForm, readsOwnForm, routeLimit })) app.use(mw);
  app.use(root.routes());
  app.use(root.allowedMethods());
  return app;
}
