import { z } from 'zod';
import { AppRejectBody, AppReviewListQuery, approveAppVersion, getAppReview, listAppReviews, rejectAppVersion } from '../apps/index.js';
import { html, type Markup } from '../html.js';
import { pager, withQuery } from '../http/ui/pager.js';
import { facts, heading, link, table, when } from '../http/ui/parts.js';
import { approveThemeReview, getThemeReview, listThemeReviews, rejectThemeReview, ThemeRejectBody, ThemeReviewListQuery } from '../themes/index.js';
import { actionForm, doneNotice, render, stateBadge, tabs } from './layout.js';
import { pagePosition, parseFields, parseQuery, type ConsoleRequest } from './request.js';

/**
 * `/console/reviews`: the two review queues, each through its own domain's services (the same as
 * `/v1/operations/app-reviews` and `/v1/operations/theme-reviews`): app versions submitted for
 * listing, and theme versions after their automated checks; each item's page shows what there is
 * to check, with Approve and Reject with reasons (one a line).
 */

/** The page's query: each queue's status and cursor, under its own names. */
const ReviewsQuery = z
  .object({
    app_status: AppReviewListQuery.shape.status,
    app_cursor: z.string().max(200).optional(),
    theme_status: ThemeReviewListQuery.shape.status.default('awaiting_review'),
    theme_cursor: z.string().max(200).optional(),
  })
  .strict();

const THEME_STATUSES = ['awaiting_review', 'checks_failed', 'pending_checks', 'approved', 'rejected'] as const;
const APP_STATUSES = ['submitted', 'approved', 'rejected'] as const;

export async function reviewsPage(c: ConsoleRequest): Promise<void> {
  const q = parseQuery(c, ReviewsQuery);
  const [apps, themes] = await Promise.all([
    listAppReviews(c.platform, parseFields(AppReviewListQuery, { status: q.app_status, ...(q.app_cursor ? { cursor: q.app_cursor } : {}), limit: 25 })),
    listThemeReviews(
      c.platform,
      parseFields(ThemeReviewListQuery, { status: q.theme_status, ...(q.theme_cursor ? { cursor: q.theme_cursor } : {}), limit: 25 }),
    ),
  ]);
  const state = { app_status: q.app_status, theme_status: q.theme_status };
  const appRows = apps.items.map((r) => [
    link(`/console/reviews/apps/${r.id}`, r.app.name),
    `v${r.number}`,
    stateBadge(r.status),
    r.developer?.name ?? null,
    when(r.submitted_at),
  ]);
  const themeRows = themes.items.map((r) => [
    link(`/console/reviews/themes/${r.id}`, `Theme version ${r.resource_id}`),
    stateBadge(r.status),
    r.checks.length
      ? html`${stateBadge(r.checks.some((k) => k.status === 'failed') ? 'failed' : r.checks.every((k) => k.status === 'passed') ? 'passed' : 'pending_checks')}
        ${r.checks.filter((k) => k.status === 'passed').length} of ${r.checks.length} passed`
      : null,
    when(r.created_at),
  ]);
  const body = html`${heading(
    'Reviews',
    'App versions submitted for the App Store, and theme versions for the theme catalog: approve, or reject with reasons the author reads.',
  )}${doneNotice(c)}
    <h2 id="apps">App listing reviews</h2>
    ${tabs('App review status', APP_STATUSES, q.app_status, (s) =>
      withQuery('/console/reviews', { ...state, app_status: s }),
    )}${table({ label: 'App listing reviews', headings: ['App', 'Version', 'Status', 'Partner', 'Submitted'], rows: appRows, empty: 'No app version in this state.' })}${pager(
      {
        path: '/console/reviews',
        params: state,
        nextCursor: apps.nextCursor,
        ...pagePosition(c, 'app_cursor'),
      },
    )}
    <h2 id="themes">Theme reviews</h2>
    ${tabs('Theme review status', THEME_STATUSES, q.theme_status, (s) =>
      withQuery('/console/reviews', { ...state, theme_status: s }),
    )}${table({ label: 'Theme reviews', headings: ['Theme version', 'Status', 'Checks', 'Uploaded'], rows: themeRows, empty: 'No theme review in this state.' })}${pager(
      {
        path: '/console/reviews',
        params: state,
        nextCursor: themes.nextCursor,
        ...pagePosition(c, 'theme_cursor'),
      },
    )}`;
  render(c, { title: 'Reviews', section: '/console/reviews', body });
}

/** Approve, and Reject with reasons (a textarea, one reason a line), each in a card of its own. */
function decisionForms(c: ConsoleRequest, base: string, canApprove: boolean, canReject: boolean, publishes: string): Markup {
  if (!canApprove && !canReject) return html`<p class="muted">This review is decided, or not ready for a decision.</p>`;
  const approve = canApprove
    ? html`<div class="card" style="margin:0">
        <h3 style="margin-top:0">Approve</h3>
        <p class="muted">${publishes}</p>
        ${actionForm(c, `${base}/approve`, 'Approve')}
      </div>`
    : null;
  const reject = canReject
    ? html`<div class="card" style="margin:0">
        <h3 style="margin-top:0">Reject</h3>
        ${actionForm(c, `${base}/reject`, 'Reject with reasons', {
          style: 'danger',
          field: { name: 'reasons', label: 'Reasons (one a line; the author reads them)', required: true, multiline: true },
        })}
      </div>`
    : null;
  return html`<div class="grid" style="grid-template-columns:repeat(auto-fit,minmax(min(320px,100%),1fr))">${approve}${reject}</div>`;
}

export async function themeReviewPage(c: ConsoleRequest, id: string): Promise<void> {
  const r = await getThemeReview(c.platform, id);
  const checks = r.checks.map((k) => [
    k.name.replace(/_/g, ' '),
    stateBadge(k.status),
    k.details.length
      ? html`<ul style="margin:0;padding-left:18px">
          ${k.details.map((d) => html`<li>${d}</li>`)}
        </ul>`
      : null,
    when(k.ran_at),
  ]);
  const body = html`<p><a href="/console/reviews#themes">« Reviews</a></p>
    ${heading(r.version ? `${r.version.slug} ${r.version.version}` : 'Theme review', `Theme review ${r.id}`)}${doneNotice(c)}${facts([
      ['Status', stateBadge(r.status)],
      ['Theme', r.version ? r.version.slug : null],
      ['Version', r.version ? `${r.version.version} (number ${r.version.version_number})` : null],
      ['Schema manifest', r.schema_manifest_version],
      ['Renderer', r.renderer_version],
      ['Uploaded', when(r.created_at)],
      ['Decided', when(r.reviewed_at)],
      ['Reasons', r.reasons?.length ? r.reasons.join(' · ') : null],
    ])}
    <h2>Automated checks</h2>
    ${table({
      label: 'Automated checks',
      headings: ['Check', 'Status', 'Details', 'Ran'],
      rows: checks,
      empty: 'The checks have not run yet.',
    })}
    <h2>Decision</h2>
    ${decisionForms(
      c,
      `/console/reviews/themes/${r.id}`,
      r.status === 'awaiting_review',
      r.status === 'awaiting_review' || r.status === 'checks_failed',
      'Publishes this version in the theme catalog (the version published before it is superseded).',
    )}`;
  render(c, { title: 'Theme review', section: '/console/reviews', body });
}

export async function appReviewPage(c: ConsoleRequest, id: string): Promise<void> {
  const r = await getAppReview(c.platform, id);
  const m = r.manifest;
  const list = (items: readonly string[] | undefined) => (items?.length ? items.map((s, i) => html`${i ? ' ' : null}<code>${s}</code>`) : null);
  const body = html`<p><a href="/console/reviews#apps">« Reviews</a></p>
    ${heading(`${r.app.name} v${r.number}`, `App version ${r.id}`)}${doneNotice(c)}${facts([
      ['Status', stateBadge(r.status)],
      ['App', `${r.app.name} (${r.app.handle}), ${r.app.status}`],
      ['Partner', r.developer ? `${r.developer.name} <${r.developer.contact_email}>` : null],
      ['Submitted', when(r.submitted_at)],
      ['Decided', when(r.reviewed_at)],
      ['Reasons', r.reasons?.length ? r.reasons.join(' · ') : null],
    ])}
    <h2>What to check</h2>
    ${
      m
        ? facts([
            ['Description', m.description],
            ['Scopes', list(m.scopes)],
            ['App URL', m.app_url],
            ['Redirect URLs', list(m.redirect_urls)],
            ['Privacy policy', m.privacy_policy_url],
            ['Support', m.support_url],
            ['Webhook topics', list(m.webhooks.topics)],
            ['Embedded', m.embedded.enabled ? `yes, at ${m.embedded.admin_path}` : 'no'],
            ['Extensions', list(m.extensions.map((e) => `${e.kind}:${e.handle}`))],
          ])
        : html`<p class="muted">No manifest.</p>`
    }
    <h2>Decision</h2>
    ${decisionForms(
      c,
      `/console/reviews/apps/${r.id}`,
      r.status === 'submitted',
      r.status === 'submitted',
      'Lists this version in the App Store: merchants install it from now on.',
    )}`;
  render(c, { title: 'App review', section: '/console/reviews', body });
}

const reasonsOf = (raw: string | undefined) =>
  (raw ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

export async function themeDecision(c: ConsoleRequest, id: string, decision: 'approve' | 'reject'): Promise<void> {
  const operator = c.viewer.merchant.merchantId;
  if (decision === 'approve') await approveThemeReview(c.platform, operator, id);
  else await rejectThemeReview(c.platform, operator, id, parseFields(ThemeRejectBody, { reasons: reasonsOf(c.form.get('reasons')) }).reasons);
  c.seeOther(withQuery(`/console/reviews/themes/${id}`, { done: decision === 'approve' ? 'approved' : 'rejected' }));
}

export async function appDecision(c: ConsoleRequest, id: string, decision: 'approve' | 'reject'): Promise<void> {
  if (decision === 'approve') await approveAppVersion(c.platform, c.viewer.merchant, id);
  else await rejectAppVersion(c.platform, c.viewer.merchant, id, parseFields(AppRejectBody, { reasons: reasonsOf(c.form.get('reasons')) }).reasons);
  c.seeOther(withQuery(`/console/reviews/apps/${id}`, { done: decision === 'approve' ? 'approved' : 'rejected' }));
}
