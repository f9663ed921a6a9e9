import Router from '@koa/router';
import type { AppContext, AppCustom, AppRouter, AppState } from '../http/context.js';
import { pageForm } from '../http/endpoint.js';
import type { Module } from '../module.js';
import type { Platform } from '../platform.js';
import { deliveriesPage, deliveryPage, redeliverAction } from './deliveries.js';
import { gatePage, gatesPage, readinessPage, runGateAction } from './health.js';
import { incidentAction, incidentPage, incidentsPage, openIncidentAction } from './incidents.js';
import { jobAction, jobPage, jobsPage } from './jobs.js';
import { overviewPage } from './overview.js';
import { admit, errorPage, type ConsoleRequest } from './request.js';
import { appDecision, appReviewPage, reviewsPage, themeDecision, themeReviewPage } from './reviews.js';
import { securityPage, undoAction } from './security.js';
import { PlatformError } from '../errors.js';

/**
 * The operator console (docs/console.md): server-rendered pages at `/console`, for operators
 * signed in in a browser (the `emporium_session` cookie; never a bearer token), reading and
 * acting through the same services as the operations API. Every action is a POST form with the
 * console's CSRF token, answered by a 303 back to its page; every error is a page with its status.
 */
function consoleRoutes(modules: () => readonly Module[]) {
  return (platform: Platform): AppRouter => {
    const router = new Router<AppState, AppCustom>();
    type Page = (c: ConsoleRequest, params: Record<string, string>) => Promise<void>;
    const page =
      (handle: Page) =>
      async (ctx: AppContext): Promise<void> => {
        try {
          const c = await admit(platform, modules(), ctx);
          if (c) await handle(c, (ctx as unknown as { params: Record<string, string> }).params);
        } catch (err) {
          errorPage(platform, ctx, err);
        }
      };
    const id = (params: Record<string, string>) => params.id ?? '';
    const get = (path: string, handle: Page) => router.get(path, page(handle));
    // Form posts: the page reads its own body (src/http/endpoint.ts, pageForm), so a bad one is a page too.
    const post = (path: string, handle: Page) => router.post(path, pageForm(page(handle)));

    get('/', (c) => overviewPage(c));
    get('/jobs', (c) => jobsPage(c));
    get('/jobs/:id', (c, p) => jobPage(c, id(p)));
    post('/jobs/:id/rerun', (c, p) => jobAction(c, id(p), 'rerun'));
    post('/jobs/:id/cancel', (c, p) => jobAction(c, id(p), 'cancel'));
    post('/jobs/:id/release', (c, p) => jobAction(c, id(p), 'release'));
    get('/deliveries', (c) => deliveriesPage(c));
    get('/deliveries/:id', (c, p) => deliveryPage(c, id(p)));
    post('/deliveries/:id/redeliver', (c, p) => redeliverAction(c, id(p)));
    get('/incidents', (c) => incidentsPage(c));
    post('/incidents', (c) => openIncidentAction(c));
    get('/incidents/:id', (c, p) => incidentPage(c, id(p)));
    post('/incidents/:id/acknowledge', (c, p) => incidentAction(c, id(p), 'acknowledge'));
    post('/incidents/:id/resolve', (c, p) => incidentAction(c, id(p), 'resolve'));
    post('/incidents/:id/notes', (c, p) => incidentAction(c, id(p), 'note'));
    get('/gates', (c) => gatesPage(c));
    post('/gates', (c) => runGateAction(c));
    get('/gates/:id', (c, p) => gatePage(c, id(p)));
    get('/security', (c) => securityPage(c));
    post('/security/:id/undo', (c, p) => undoAction(c, id(p)));
    get('/readiness', (c) => readinessPage(c));
    get('/reviews', (c) => reviewsPage(c));
    get('/reviews/themes/:id', (c, p) => themeReviewPage(c, id(p)));
    post('/reviews/themes/:id/approve', (c, p) => themeDecision(c, id(p), 'approve'));
    post('/reviews/themes/:id/reject', (c, p) => themeDecision(c, id(p), 'reject'));
    get('/reviews/apps/:id', (c, p) => appReviewPage(c, id(p)));
    post('/reviews/apps/:id/approve', (c, p) => appDecision(c, id(p), 'approve'));
    post('/reviews/apps/:id/reject', (c, p) => appDecision(c, id(p), 'reject'));
    // Any other console path: a page too (after the same access check), not the API's JSON 404.
    const missing = page(() => Promise.reject(new PlatformError('not_found', 'not_found', 'There is no such console page')));
    router.get('/{*rest}', missing);
    router.post('/{*rest}', pageForm(missing));
    return router;
  };
}

/** The operator console's module: its pages at `/console` (given the module list, lazily, for the operations services). */
export function consoleModule(modules: () => readonly Module[]): Module {
  return {
    name: 'console',
    routes: [{ path: '/console', router: consoleRoutes(modules) }],
  };
}
