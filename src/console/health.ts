import { html } from '../html.js';
import { blankForm, csrfInput, field } from '../http/ui/forms.js';
import { pager, withQuery } from '../http/ui/pager.js';
import { facts, heading, link, table, when } from '../http/ui/parts.js';
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
import { doneNotice, render, stateBadge } from './layout.js';
import { pagePosition, parseFields, parseQuery, type ConsoleRequest } from './request.js';

/**
 * `/console/gates`: deployment health gates through the operations API's services (run one with
 * the default thresholds, optionally some checks only; the verdicts kept, the newest first), and
 * `/console/readiness`: the readiness report.
 */

const checksTable = (g: GateView) =>
  table({
    label: 'Checks',
    headings: ['Check', 'Status', 'Value', 'Threshold', 'Detail'],
    rows: g.checks.map((k) => [k.name.replace(/_/g, ' '), stateBadge(k.status), k.value, k.threshold, k.detail]),
    empty: 'No check ran.',
  });

export async function gatesPage(c: ConsoleRequest): Promise<void> {
  const q = parseQuery(c, GateListQuery);
  const page = await listDeploymentGates(c.platform, q);
  const position = pagePosition(c);
  const latest = !position.cursor ? page.items[0] : undefined;
  const boxes = GATE_CHECKS.map(
    (n) =>
      html`<label style="display:inline-flex;gap:6px;align-items:center;margin:0 14px 6px 0"
        ><input type="checkbox" name="check_${n}" value="1"> ${n.replace(/_/g, ' ')}</label
      >`,
  );
  const run = html`<form class="card" method="post" action="/console/gates">
    ${csrfInput(c.viewer.csrf)}${field(blankForm(), 'label', 'Label (e.g. the release it gates)', {
      attrs: html`maxlength="200"`,
    })}
    <fieldset style="border:0;padding:0;margin:0 0 12px">
      <legend style="font-weight:600;font-size:.9rem;margin-bottom:6px">Checks (all when none is ticked)</legend>
      ${boxes}
    </fieldset>
    <button class="button" type="submit">Run a health gate</button>
  </form>`;
  const rows = page.items.map((g) => [
    link(`/console/gates/${g.id}`, g.label ?? 'unlabelled'),
    stateBadge(g.verdict),
    g.checks
      .filter((k) => k.status === 'failed')
      .map((k) => k.name)
      .join(', ') || null,
    when(g.created_at),
  ]);
  const body = html`${heading('Deployment health gates', 'A release step runs one and stops on anything but passed; each check against the default thresholds.')}${doneNotice(
    c,
  )}${run}${
    latest
      ? html`<h2>Latest verdict: ${stateBadge(latest.verdict)}</h2>
            ${checksTable(latest)}`
      : null
  }
    <h2>Gates run</h2>
    ${table({
      label: 'Gates run',
      headings: ['Gate', 'Verdict', 'Failed checks', 'Run'],
      rows,
      empty: 'No gate was run yet.',
    })}${pager({ path: '/console/gates', params: {}, nextCursor: page.nextCursor, ...position })}`;
  render(c, { title: 'Health gates', section: '/console/gates', body });
}

export async function gatePage(c: ConsoleRequest, id: string): Promise<void> {
  const g = await getDeploymentGate(c.platform, id);
  const body = html`<p><a href="/console/gates">« Health gates</a></p>
    ${heading(g.label ?? 'Health gate', `Gate ${g.id}`)}${doneNotice(c)}${facts([
      ['Verdict', stateBadge(g.verdict)],
      ['Run', when(g.created_at)],
      ['Run by', html`<code>${g.run_by}</code>`],
    ])}${checksTable(g)}`;
  render(c, { title: 'Health gate', section: '/console/gates', body });
}

export async function runGateAction(c: ConsoleRequest): Promise<void> {
  const picked = GATE_CHECKS.filter((n) => c.form.get(`check_${n}`) === '1');
  const label = c.form.get('label')?.trim();
  const body = parseFields(RunGateBody, { ...(label ? { label } : {}), ...(picked.length ? { checks: picked } : {}) });
  const gate = await runDeploymentGate(c.platform, c.modules, c.viewer.merchant.merchantId, body);
  c.seeOther(withQuery(`/console/gates/${gate.id}`, { done: 'gate' }));
}

export async function readinessPage(c: ConsoleRequest): Promise<void> {
  const r = await readinessReport(c.platform, c.modules);
  const generated = r.generated_at.replace('T', ' ').replace(/\.\d+Z$/, '');
  const body = html`${heading('Readiness report', `What in this deployment (${r.environment}) is not yet fit for production; generated ${generated} UTC.`)}
    <p>Overall: ${stateBadge(r.status)}</p>
    ${table({
      label: 'Readiness',
      headings: ['Item', 'Status', 'Detail'],
      rows: r.items.map((i) => [i.check.replace(/_/g, ' '), stateBadge(i.status), i.detail]),
      empty: 'Nothing to report.',
    })}`;
  render(c, { title: 'Readiness', section: '/console/readiness', body });
}
