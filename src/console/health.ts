import { escapeHtml } from '../html.js';
import { join, markup } from '../http/page.js';
import {
  GATE_CHECKS,
  GateListQuery,
  getDeploymentGate,
  listDeploymentGates,
  readinessReport,
  runDeploymentGate,
  RunGateBody,
  type GateView,
} from '../operations/index.js';
import { badge, doneNotice, facts, heading, link, pager, table, when, withQuery } from './layout.js';
import { doneOf, parseFields, parseQuery, postedForm, render, seeOther, type ConsoleRequest } from './request.js';

/**
 * `/console/gates`: deployment health gates through the operations API's services (run one with
 * the default thresholds, optionally some checks only; the verdicts kept, the newest first), and
 * `/console/readiness`: the readiness report.
 */

const checksTable = (g: GateView) =>
  table(
    ['Check', 'Status', 'Value', 'Threshold', 'Detail'],
    g.checks.map((k) => [k.name.replace(/_/g, ' '), badge(k.status), k.value, k.threshold, k.detail]),
  );

export async function gatesPage(c: ConsoleRequest): Promise<void> {
  const q = parseQuery(c, GateListQuery);
  const page = await listDeploymentGates(c.platform, q);
  const latest = !q.cursor ? page.items[0] : undefined;
  const boxes = GATE_CHECKS.map(
    (n) =>
      `<label style="display:inline-flex;gap:6px;align-items:center;margin:0 14px 6px 0"><input type="checkbox" name="check_${n}" value="1"> ${escapeHtml(n.replace(/_/g, ' '))}</label>`,
  ).join('');
  const run = markup(
    `<form class="card" method="post" action="/console/gates"><input type="hidden" name="csrf_token" value="${escapeHtml(c.viewer.csrf)}">` +
      `<div class="field"><label for="gate-label">Label (e.g. the release it gates)</label><input type="text" id="gate-label" name="label" maxlength="200"></div>` +
      `<fieldset style="border:0;padding:0;margin:0 0 12px"><legend style="font-weight:600;font-size:.9rem;margin-bottom:6px">Checks (all when none is ticked)</legend>${boxes}</fieldset>` +
      `<button class="button" type="submit">Run a health gate</button></form>`,
  );
  const rows = page.items.map((g) => [
    link(`/console/gates/${g.id}`, g.label ?? 'unlabelled'),
    badge(g.verdict),
    g.checks
      .filter((k) => k.status === 'failed')
      .map((k) => k.name)
      .join(', ') || null,
    when(g.created_at),
  ]);
  const body = join(
    heading('Deployment health gates', 'A release step runs one and stops on anything but passed; each check against the default thresholds.'),
    doneNotice(doneOf(c)),
    run,
    latest ? join(markup('<h2>Latest verdict: '), badge(latest.verdict), markup('</h2>'), checksTable(latest)) : '',
    markup('<h2>Gates run</h2>'),
    table(['Gate', 'Verdict', 'Failed checks', 'Run'], rows, 'No gate was run yet.'),
    pager('/console/gates', {}, page.nextCursor, !q.cursor),
  );
  render(c, { title: 'Health gates', section: '/console/gates', body });
}

export async function gatePage(c: ConsoleRequest, id: string): Promise<void> {
  const g = await getDeploymentGate(c.platform, id);
  const body = join(
    markup('<p><a href="/console/gates">« Health gates</a></p>'),
    heading(g.label ?? 'Health gate', `Gate ${g.id}`),
    doneNotice(doneOf(c)),
    facts([
      ['Verdict', badge(g.verdict)],
      ['Run', when(g.created_at)],
      ['Run by', markup(`<code>${escapeHtml(g.run_by)}</code>`)],
    ]),
    checksTable(g),
  );
  render(c, { title: 'Health gate', section: '/console/gates', body });
}

export async function runGateAction(c: ConsoleRequest): Promise<void> {
  const f = await postedForm(c);
  const picked = GATE_CHECKS.filter((n) => f.get(`check_${n}`) === '1');
  const label = f.get('label')?.trim();
  const body = parseFields(RunGateBody, { ...(label ? { label } : {}), ...(picked.length ? { checks: picked } : {}) });
  const gate = await runDeploymentGate(c.platform, c.modules, c.operator.merchantId, body);
  seeOther(c, withQuery(`/console/gates/${gate.id}`, { done: 'gate' }));
}

export async function readinessPage(c: ConsoleRequest): Promise<void> {
  const r = await readinessReport(c.platform, c.modules);
  const body = join(
    heading(
      'Readiness report',
      `What in this deployment (${r.environment}) is not yet fit for production; generated ${r.generated_at.replace('T', ' ').replace(/\.\d+Z$/, '')} UTC.`,
    ),
    join(markup('<p>Overall: '), badge(r.status), markup('</p>')),
    table(
      ['Item', 'Status', 'Detail'],
      r.items.map((i) => [i.check.replace(/_/g, ' '), badge(i.status), i.detail]),
    ),
  );
  render(c, { title: 'Readiness', section: '/console/readiness', body });
}
