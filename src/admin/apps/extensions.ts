import {
  findInstalledApp,
  functionRunLog,
  listRegistry,
  MAX_KEPT_RUNS,
  UpdateRegistrationBody,
  updateRegistration,
  type RegistrationView,
} from '../../apps/index.js';
import { notFound } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import { csrfInput, errorSummary, hiddenInput } from '../../http/ui/forms.js';
import { withQuery } from '../../http/ui/pager.js';
import { badge, facts, table, when, type Tone } from '../../http/ui/parts.js';
import { storePage } from '../layout.js';
import type { StorePage } from '../request.js';
import { APPS_STYLE, appTile, appsPath, kindWords } from './parts.js';
import type { AppPage } from './installed.js';

/**
 * An installation's extensions and Checkout Functions (docs/admin.md, Apps): the registry of
 * `GET /v1/app-store/installations/:id/extensions` (its rows, lifecycle and the app's quality
 * checklist), Enable and Disable through the PATCH's `updateRegistration` (the version the page
 * read, so a change made meanwhile is refused; it records the lifecycle event), and each
 * function's run log of `GET …/functions/runs`, as the merchant sees it (exact figures).
 */

export type RowPage = StorePage<{ storeId: string; handle: string; registrationId: string }>;

/** Runs a page of a function's run log shows; the log keeps MAX_KEPT_RUNS, so it has a few pages at most. */
const RUNS_PER_PAGE = 20;

const STATE_TONE: Record<RegistrationView['state'], Tone> = { enabled: 'ok', disabled: 'neutral', revoked: 'bad' };
const GATE_TONE: Record<string, Tone> = { pass: 'ok', fail: 'bad', not_enough_data: 'warn' };
const words = (s: string) => s.replace(/_/g, ' ');

/** Enable or Disable: the row's version as read, and the state it asks for; revoked rows have none. */
function toggle(at: string, r: RegistrationView, csrf: string | null, live: boolean): Markup | null {
  if (!live || r.state === 'revoked') return null;
  const next = r.state === 'enabled' ? 'disabled' : 'enabled';
  return html`<form method="post" action="${at}/${r.id}">
    ${csrfInput(csrf)}${hiddenInput('version', String(r.version))}${hiddenInput('state', next)}
    <button class="button button--secondary" type="submit">${next === 'enabled' ? 'Enable' : 'Disable'}<span class="visually-hidden"> ${r.name}</span></button>
  </form>`;
}

function rowsTable(label: string, list: readonly RegistrationView[], at: string, csrf: string | null, live: boolean, functions: boolean): Markup {
  return table({
    label,
    headings: ['Name', 'Target', 'State', 'Revision', functions ? 'Run log' : 'Change', ...(functions ? ['Change'] : [])],
    stack: true,
    rows: list.map((r) => [
      html`<strong>${r.name}</strong><br /><span class="muted">${kindWords(r.kind)} · <code>${r.handle}</code></span>`,
      html`<code class="target">${r.target}</code>${r.blocking ? html`<br /><span class="muted">blocks checkout</span>` : null}`,
      html`${badge(r.state, STATE_TONE[r.state])}<br /><span class="muted">${when(r.last_transition.at)}${
        r.last_transition.by.type === 'platform' ? ` by the platform (${words(r.last_transition.reason)})` : ' by you'
      }</span>`,
      `v${r.version}`,
      ...(functions ? [html`<a href="${at}/${r.id}/runs">Runs</a>`] : []),
      toggle(at, r, csrf, live),
    ]),
    empty: functions ? 'The app adds no Checkout Function.' : 'The app adds no extension.',
  });
}

export async function extensionsPage(s: AppPage, problems: readonly string[] = [], status = 200): Promise<void> {
  const a = await findInstalledApp(s.platform, s.store.id, s.params.handle);
  const listing = await listRegistry(s.platform, s.store, a.installation.id, { kind: 'merchant' });
  const base = appsPath(s, `/${a.app.handle}`);
  const at = `${base}/extensions`;
  const live = a.installation.status === 'active';
  const revocation = listing.lifecycle.revocation;
  const checklist = listing.review_checklist;
  const body = html`${APPS_STYLE}<p><a href="${base}/settings">« ${a.app.name}</a></p>
    <div class="app-head" style="margin-bottom:14px">
      ${appTile(a.app.name)}
      <h1 style="margin:0">Extensions and functions</h1>
    </div>
    ${errorSummary(problems)}
    <p class="muted">
      What ${a.app.name} adds to your admin, theme and checkout. A new extension that changes your checkout starts disabled: enable it when you are ready.
      ${live ? null : 'The app is uninstalled: its rows are revoked and cannot be enabled again.'}
    </p>
    <p>
      ${listing.lifecycle.counts.enabled} enabled · ${listing.lifecycle.counts.disabled} disabled · ${listing.lifecycle.counts.revoked} revoked${
        revocation ? ` · revocation ${revocation.status}: ${revocation.rows_revoked} revoked` : ''
      }
    </p>
    <h2>Extensions</h2>
    ${rowsTable('Extensions', listing.extensions, at, s.viewer.csrf, live, false)}
    <h2>Checkout Functions</h2>
    ${rowsTable('Checkout Functions', listing.functions, at, s.viewer.csrf, live, true)}
    <h2>Quality checklist</h2>
    ${
      checklist
        ? html`<p>The App Store’s quality gates for ${a.app.name}: ${badge(words(checklist.status), GATE_TONE[checklist.status])}</p>
            ${table({
              label: 'Quality checklist',
              headings: ['Check', 'Status', 'Details'],
              stack: true,
              rows: checklist.checks.map((c) => [
                words(c.check),
                badge(c.applies ? words(c.status) : 'does not apply', c.applies ? GATE_TONE[c.status] : 'neutral'),
                c.details.length ? c.details.join('; ') : null,
              ]),
              empty: 'No checks.',
            })}`
        : html`<p class="muted">The app no longer exists.</p>`
    }`;
  s.render(storePage(s, 'apps', { title: `Extensions of ${a.app.name}`, body }), status);
}

/** Enable or Disable a row: `updateRegistration` with the version the page showed; a stale or revoked row is the page again with why. */
export async function registrationAction(s: RowPage): Promise<void> {
  const a = await findInstalledApp(s.platform, s.store.id, s.params.handle);
  const listing = await listRegistry(s.platform, s.store, a.installation.id, { kind: 'merchant' });
  const functions = listing.functions.some((r) => r.id === s.params.registrationId);
  const parsed = UpdateRegistrationBody.safeParse({ version: Number(s.form.get('version')), state: s.form.get('state') });
  if (!parsed.success) return extensionsPage(s, ['Choose Enable or Disable on a row of this page.'], 400);
  const done = await updateRegistration(s.platform, {
    storeId: s.store.id,
    installationId: a.installation.id,
    registrationId: s.params.registrationId,
    merchantId: s.viewer.merchant.merchantId,
    functions,
    body: parsed.data,
  });
  const r = done.registration;
  if (done.outcome === 'conflict') {
    return extensionsPage(
      s,
      [`${r.name} changed since this page was shown: it is ${r.state} now (revision v${r.version}). Nothing was changed; choose again.`],
      409,
    );
  }
  if (done.outcome === 'revoked') return extensionsPage(s, [`${r.name} is revoked: a revoked extension cannot be enabled again.`], 409);
  s.seeOther(appsPath(s, `/${a.app.handle}/extensions`), `${r.name} is ${r.state}.`);
}

/** A run's measures in a line: duration, operations, input and output sizes. */
const measures = (r: { duration_ms: number; operations: number | null; input_bytes: number; output_bytes: number }) =>
  `${r.duration_ms} ms · ${r.operations === null ? '–' : r.operations} operations · ${r.input_bytes} B in · ${r.output_bytes} B out`;

/** A function's figures over the last days and its newest runs, RUNS_PER_PAGE a page. */
export async function runLogPage(s: RowPage): Promise<void> {
  const a = await findInstalledApp(s.platform, s.store.id, s.params.handle);
  // The run log's service takes a well-formed id only (its route checks it first, as this does).
  if (!/^[0-9a-f]{24}$/.test(s.params.registrationId)) throw notFound('Function');
  const pageText = typeof s.ctx.query.page === 'string' ? s.ctx.query.page : '1';
  const pages = Math.ceil(MAX_KEPT_RUNS / RUNS_PER_PAGE);
  const page = /^[1-9]\d{0,2}$/.test(pageText) ? Math.min(Number(pageText), pages) : 1;
  const log = await functionRunLog(
    s.platform,
    s.store.id,
    a.installation.id,
    { kind: 'merchant' },
    { registration_id: s.params.registrationId, limit: page * RUNS_PER_PAGE + 1 },
  );
  const fn = log.functions.find((f) => f.registration_id === s.params.registrationId);
  if (!fn) throw notFound('Function');
  const runs = log.runs.slice((page - 1) * RUNS_PER_PAGE, page * RUNS_PER_PAGE);
  const more = log.runs.length > page * RUNS_PER_PAGE && page < pages;
  const at = appsPath(s, `/${a.app.handle}/extensions/${fn.registration_id}/runs`);
  const m = fn.metrics;
  const d = m['app_function.execution.duration_ms'];
  const body = html`${APPS_STYLE}<p><a href="${appsPath(s, `/${a.app.handle}/extensions`)}">« Extensions and functions</a></p>
    <h1>Run log of <code>${fn.handle}</code></h1>
    <p class="muted lead">${a.app.name} · target <code>${fn.target}</code> · ${fn.state}</p>
    <h2>Over the last ${m.window.days} days</h2>
    ${facts([
      ['Runs', String(m['app_function.execution.count'])],
      ['Failed securely', `${m['app_function.execution.failed_securely']}${m.failure_rate === null ? '' : ` (${(m.failure_rate * 100).toFixed(2)} %)`}`],
      ['Duration', d.mean === null ? null : `mean ${d.mean} ms · p95 ${d.p95} ms or less`],
      [
        'Failures',
        Object.keys(m.failures).length
          ? Object.entries(m.failures)
              .map(([code, n]) => `${words(code)}: ${n}`)
              .join(', ')
          : null,
      ],
    ])}
    <h2>Newest runs</h2>
    ${table({
      label: 'Runs',
      headings: ['When', 'Outcome', 'Measures', 'Error'],
      stack: true,
      rows: runs.map((r) => [
        when(r.at),
        r.outcome === 'ok' ? badge('ok', 'ok') : badge('failed securely', 'bad'),
        measures(r),
        r.error_code ? html`<code>${r.error_code}</code>${'error_message' in r && r.error_message ? html`<br />${r.error_message}` : null}` : null,
      ]),
      empty: page === 1 ? 'No runs yet: the function runs at checkout once it is enabled.' : 'No older runs are kept.',
    })}
    ${
      page > 1 || more
        ? html`<nav class="pager" aria-label="Pages">
            ${page > 1 ? html`<a class="button button--secondary" rel="prev" href="${withQuery(at, { page: page === 2 ? null : String(page - 1) })}">‹ Newer runs</a>` : null}${
              more ? html`<a class="button button--secondary" rel="next" href="${withQuery(at, { page: String(page + 1) })}">Older runs »</a>` : null
            }
          </nav>`
        : null
    }
    <p class="muted">The log keeps each function’s newest ${MAX_KEPT_RUNS} runs.</p>`;
  s.render(storePage(s, 'apps', { title: `Run log of ${fn.handle}`, body }));
}
