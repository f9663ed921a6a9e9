import type { Middleware } from 'koa';
import { databaseDown, databaseUnavailable, probeDatabase } from '../db.js';
import type { Platform } from '../platform.js';
import type { AppContext, AppCustom, AppState } from './context.js';
import { sendErrorPage } from './page-errors.js';

/**
 * While the driver knows the database is down (src/db.ts, watchDatabase), every request is answered
 * at once: 503 `database_unavailable` with `Retry-After`, as an HTML page to a browser (`Accept`
 * prefers HTML) and on a host site (the shop), instead of waiting for the driver to give up on a
 * server (MONGODB_CONNECT_TIMEOUT_MS) in every step that reads. The probes (`/health`, `/ready`)
 * still run: they say so in their own shape and, like each refusal here, make the driver look again.
 */
export function refuseWhileDatabaseDown(
  platform: Platform,
  options: { probes: readonly string[]; page: (ctx: AppContext) => boolean },
): Middleware<AppState, AppCustom> {
  const isProbe = (path: string) => options.probes.some((p) => path === p || path.startsWith(`${p}/`));
  return async (ctx, next) => {
    if (!databaseDown(platform.db) || isProbe(ctx.path)) return next();
    probeDatabase(platform.db);
    const refusal = databaseUnavailable();
    if (!options.page(ctx) && ctx.accepts('json', 'html') !== 'html') throw refusal;
    sendErrorPage(ctx, refusal);
  };
}
