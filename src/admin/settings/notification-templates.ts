import { html, type Markup } from '../../html.js';
import { blankForm, csrfInput, errorSummary, field, textarea, type FormState } from '../../http/ui/forms.js';
import { badge, table } from '../../http/ui/parts.js';
import {
  getNotification,
  listNotifications,
  merchantAddress,
  previewNotification,
  putNotification,
  PutTemplateBody,
  resetNotification,
  sendTestNotification,
  type LatestOrder,
  type PreviewView,
} from '../../notifications/index.js';
import { ListOrdersQuery, listOrders } from '../../orders/index.js';
import { parsedBody, refusedForm } from '../forms.js';
import { storePath, type StorePage } from '../request.js';
import { settingsPage } from './index.js';

/**
 * Settings → Notifications (docs/notifications.md, The admin): the list of the store's
 * notifications under the sender's form, and one page per notification to edit its subject,
 * text and HTML, see both parts rendered with the store's latest order, reset it to the default
 * and send a test to the merchant. The HTML preview is a sandboxed `srcdoc` frame with no
 * permission at all: no script of the template runs, and it cannot reach this page.
 */

const PARTS = ['subject', 'text', 'html'] as const;
const FIELDS: ReadonlySet<string> = new Set(PARTS);
const latestOrder: LatestOrder = async (platform, storeId) =>
  (await listOrders(platform, storeId, ListOrdersQuery.parse({ limit: 1, order: 'newest' }))).items[0] ?? null;
const path = (s: StorePage, kind: string, rest = '') => storePath(s.store, `/settings/notifications/${encodeURIComponent(kind)}${rest}`);

/** The table under the sender's form: every notification, whether the store edited it, and its page. */
export async function notificationList(s: StorePage): Promise<Markup> {
  const items = await listNotifications(s.platform, s.store.id);
  return html`<h2>Emails</h2>
    ${table({
      label: 'Notifications',
      headings: ['Notification', 'To', 'Sent when', 'Template'],
      stack: true,
      empty: 'No notifications.',
      rows: items.map((n) => [
        html`<a href="${path(s, n.kind)}">${n.title}</a>`,
        n.audience === 'customer' ? 'Customer' : 'You',
        n.sent_when,
        n.customized ? badge('Edited', 'ok') : badge('Default'),
      ]),
    })}`;
}

function previewParts(preview: PreviewView): Markup {
  return html`<section class="card" aria-labelledby="preview-heading">
    <h2 id="preview-heading" style="margin-top:0">Preview</h2>
    <p class="muted">${preview.rendered_from === 'latest_order' ? 'Rendered with your latest order.' : 'Rendered with a sample order (the store has none yet).'}</p>
    <p><strong>Subject:</strong> ${preview.subject}</p>
    <h3>Text</h3>
    <pre style="white-space:pre-wrap;word-break:break-word;max-height:400px;overflow:auto;background:#f6f6f7;padding:12px;border-radius:4px">${preview.text}</pre>
    <h3>HTML</h3>
    <iframe title="HTML preview" sandbox="" referrerpolicy="no-referrer" srcdoc="${preview.html}" style="width:100%;height:640px;border:1px solid #d1d5db;border-radius:4px;background:#fff"></iframe>
  </section>`;
}

/** One notification's page: its form (the saved template, or what was sent when it is shown again), its preview and its actions. */
export async function notificationTemplatePage(s: StorePage, kind: string, form?: FormState, status = 200): Promise<void> {
  const [current, to] = await Promise.all([getNotification(s.platform, s.store.id, kind), merchantAddress(s.platform, s.store.id)]);
  const shown = form ?? blankForm(new Map(PARTS.map((f) => [f, current[f]])));
  let preview: Markup = html``;
  if (!form || form.problems.length + form.errors.size === 0) {
    const template = form
      ? { subject: shown.values.get('subject') ?? '', text: shown.values.get('text') ?? '', html: shown.values.get('html') ?? '' }
      : undefined;
    preview = previewParts(await previewNotification(s.platform, s.store, kind, { order: 'latest', ...(template ? { template } : {}) }, latestOrder));
  }
  const body = html`<p>
      ${current.customized ? badge('Edited', 'ok') : badge('Default')} To ${current.audience === 'customer' ? 'the customer' : 'you'} · ${current.sent_when}
    </p>
    <form class="card" method="post" action="${path(s, kind)}" novalidate>
      ${csrfInput(s.viewer.csrf)}${errorSummary(shown.problems)}
      ${field(shown, 'subject', 'Subject', { required: true })}
      ${textarea(shown, 'text', 'Text', { required: true, rows: 12, hint: 'The plain-text part, in Liquid: {{ order.name }}, {{ order.total_price | money }}, …' })}
      ${textarea(shown, 'html', 'HTML', { required: true, rows: 16, hint: 'The HTML part’s content; the store’s name, logo and colours frame it. Values are escaped.' })}
      <div style="display:flex;flex-wrap:wrap;gap:8px">
        <button class="button" type="submit">Save</button>
        <button class="button button--secondary" type="submit" formaction="${path(s, kind, '/preview')}">Preview without saving</button>
      </div>
    </form>
    ${preview}
    <div style="display:flex;flex-wrap:wrap;gap:8px">
      <form method="post" action="${path(s, kind, '/test')}">
        ${csrfInput(s.viewer.csrf)}<button class="button button--secondary" type="submit">Send a test to ${to ?? 'you'}</button>
      </form>
      ${
        current.customized
          ? html`<form method="post" action="${path(s, kind, '/reset')}">
            ${csrfInput(s.viewer.csrf)}<button class="button button--secondary" type="submit">Reset to default</button>
          </form>`
          : null
      }
    </div>`;
  settingsPage(s, { title: current.title, lead: 'Liquid templates: docs/notifications.md lists the objects each one sees.', body, wide: true }, status);
}

const sent = (s: StorePage) => ({ subject: s.form.get('subject') ?? '', text: s.form.get('text') ?? '', html: s.form.get('html') ?? '' });

export async function saveNotificationTemplate(s: StorePage, kind: string): Promise<void> {
  const input = parsedBody(PutTemplateBody, sent(s), s.form, FIELDS);
  if (input.form) return notificationTemplatePage(s, kind, input.form, 400);
  try {
    await putNotification(s.platform, s.store.id, kind, input.data);
  } catch (err) {
    return notificationTemplatePage(s, kind, refusedForm(s.form, err, FIELDS), 400);
  }
  s.seeOther(path(s, kind), 'The template is saved: the next email uses it.');
}

/** The form's unsaved template, previewed (nothing saved); invalid Liquid shows at its field. */
export async function previewNotificationTemplate(s: StorePage, kind: string): Promise<void> {
  const input = parsedBody(PutTemplateBody, sent(s), s.form, FIELDS);
  if (input.form) return notificationTemplatePage(s, kind, input.form, 400);
  try {
    await previewNotification(s.platform, s.store, kind, { order: 'sample', template: input.data }, null);
  } catch (err) {
    return notificationTemplatePage(s, kind, refusedForm(s.form, err, FIELDS), 400);
  }
  await notificationTemplatePage(s, kind, blankForm(s.form));
}

export async function resetNotificationTemplate(s: StorePage, kind: string): Promise<void> {
  await resetNotification(s.platform, s.store.id, kind);
  s.seeOther(path(s, kind), 'The default template is back.');
}

export async function sendNotificationTest(s: StorePage, kind: string): Promise<void> {
  const { to } = await sendTestNotification(s.platform, s.store, kind, latestOrder);
  s.seeOther(path(s, kind), `A test went to ${to}.`);
}
