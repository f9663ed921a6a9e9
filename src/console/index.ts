import type { AppRouter } from '../http/context.js';
import { sessionForms } from '../http/page-access.js';
import { pages, type Page } from '../http/pages.js';
import type { Module } from '../module.js';
import type { Platform } from '../platform.js';
import { deliveriesPage, deliveryPage, redeliverAction } from './deliveries.js';
import { gatePage, gatesPage, readinessPage, runGateAction } from './health.js';
import { incidentAction, incidentPage, incidentsPage, openIncidentAction } from './incidents.js';
import { confirmJobAction, jobAction, jobPage, jobsPage } from './jobs.js';
import { consoleErrorPage } from './layout.js';
import { overviewPage } from './overview.js';
import { consoleAccess, type ConsoleRequest, type ConsoleViewer } from './request.js';
import { appDecision, appReviewPage, reviewsPage, themeDecision, themeReviewPage } from './reviews.js';
import { securityPage, undoAction } from './security.js';

/**
 * The operator console (docs/console.md): server-rendered pages at `/console`, for operators
 * signed in in a browser (the `emporium_session` cookie; never a bearer token), reading and
 * acting through the same services as the operations API. Every action is a POST form with the
 * session's CSRF token, answered by a 303 back to its page; a destructive one has a confirm step
 * at a GET of its address; every error is a page with its status; any other path under /console
 * is a 404 page (after the access check).
 */
function consolePages(modules: () => readonly Module[]) {
  return (platform: Platform): AppRouter => {
    const on = pages(platform, { name: 'console', access: consoleAccess, csrf: sessionForms, errorPage: consoleErrorPage, ownsMount: true });
    const c = (page: Page<ConsoleViewer, unknown>): ConsoleRequest => ({ ...page, modules: modules() });

    on.get('/', (p) => overviewPage(c(p)));
    on.get('/jobs', (p) => jobsPage(c(p)));
    on.get('/jobs/:id', (p) => jobPage(c(p), p.params.id));
    on.post('/jobs/:id/rerun', (p) => jobAction(c(p), p.params.id, 'rerun'));
    on.get('/jobs/:id/cancel', (p) => confirmJobAction(c(p), p.params.id, 'cancel'));
    on.post('/jobs/:id/cancel', (p) => jobAction(c(p), p.params.id, 'cancel'));
    on.get('/jobs/:id/release', (p) => confirmJobAction(c(p), p.params.id, 'release'));
    on.post('/jobs/:id/release', (p) => jobAction(c(p), p.params.id, 'release'));
    on.get('/deliveries', (p) => deliveriesPage(c(p)));
    on.get('/deliveries/:id', (p) => deliveryPage(c(p), p.params.id));
    on.post('/deliveries/:id/redeliver', (p) => redeliverAction(c(p), p.params.id));
    on.get('/incidents', (p) => incidentsPage(c(p)));
    on.post('/incidents', (p) => openIncidentAction(c(p)));
    on.get('/incidents/:id', (p) => incidentPage(c(p), p.params.id));
    on.post('/incidents/:id/acknowledge', (p) => incidentAction(c(p), p.params.id, 'acknowledge'));
    on.post('/incidents/:id/resolve', (p) => incidentAction(c(p), p.params.id, 'resolve'));
    on.post('/incidents/:id/notes', (p) => incidentAction(c(p), p.params.id, 'note'));
    on.get('/gates', (p) => gatesPage(c(p)));
    on.post('/gates', (p) => runGateAction(c(p)));
    on.get('/gates/:id', (p) => gatePage(c(p), p.params.id));
    on.get('/security', (p) => securityPage(c(p)));
    on.post('/security/:id/undo', (p) => undoAction(c(p), p.params.id));
    on.get('/readiness', (p) => readinessPage(c(p)));
    on.get('/reviews', (p) => reviewsPage(c(p)));
    on.get('/reviews/themes/:id', (p) => themeReviewPage(c(p), p.params.id));
    on.post('/reviews/themes/:id/approve', (p) => themeDecision(c(p), p.params.id, 'approve'));
    on.post('/reviews/themes/:id/reject', (p) => themeDecision(c(p), p.params.id, 'reject'));
    on.get('/reviews/apps/:id', (p) => appReviewPage(c(p), p.params.id));
    on.post('/reviews/apps/:id/approve', (p) => appDecision(c(p), p.params.id, 'approve'));
    on.post('/reviews/apps/:id/reject', (p) => appDecision(c(p), p.params.id, 'reject'));
    return on.router;
  };
}

/** The operator console's module: its pages at `/console` (given the module list, lazily, for the operations services). */
export function consoleModule(modules: () => readonly Module[]): Module {
  return {
    name: 'console',
    pages: [{ path: '/console', router: consolePages(modules) }],
  };
}
