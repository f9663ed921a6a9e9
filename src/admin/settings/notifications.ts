import { html } from '../../html.js';
import { blankForm, field, type FormState } from '../../http/ui/forms.js';
import { EmailSender, updateStore } from '../../stores/index.js';
import { parsedBody, refusedForm } from '../forms.js';
import { storePath, type StorePage } from '../request.js';
import { settingsForm, settingsPage } from './index.js';
import { notificationList } from './notification-templates.js';

/**
 * `/admin/stores/<id>/settings/notifications` (docs/admin.md, Settings): who the store's emails to
 * its customers come from, the store's `email_sender` (`PATCH /v1/stores/:id`: its schema's
 * `EmailSender` and the stores service). Both fields empty go back to the platform's own sender.
 */

const FIELDS: ReadonlySet<string> = new Set(['name', 'email']);

export async function notificationsPage(s: StorePage, form?: FormState, status = 200): Promise<void> {
  const sender = s.store.email_sender;
  const shown =
    form ??
    blankForm(
      new Map([
        ['name', sender?.name ?? ''],
        ['email', sender?.email ?? ''],
      ]),
    );
  const fields = html`${field(shown, 'name', 'Sender name', { hint: `What a customer’s inbox shows, such as ${s.store.name}` })}
    ${field(shown, 'email', 'Sender email', { type: 'email', autocomplete: 'off', hint: 'The address they come from' })}`;
  const lead = sender
    ? 'The emails to your customers (order confirmations, shipping updates, account invitations) come from this sender.'
    : 'The emails to your customers (order confirmations, shipping updates, account invitations) come from the platform’s own sender until you set yours.';
  settingsPage(
    s,
    {
      title: 'Notifications',
      lead,
      body: html`${settingsForm(s, { action: storePath(s.store, '/settings/notifications'), form: shown, fields })}${await notificationList(s)}`,
    },
    status,
  );
}

export async function saveNotifications(s: StorePage): Promise<void> {
  const name = (s.form.get('name') ?? '').trim();
  const email = (s.form.get('email') ?? '').trim();
  const input = name || email ? parsedBody(EmailSender, { name, email }, s.form, FIELDS) : { data: null, form: undefined };
  if (input.form) return notificationsPage(s, input.form, 400);
  try {
    await updateStore(s.platform, s.viewer.merchant.merchantId, s.store.id, { email_sender: input.data });
  } catch (err) {
    return notificationsPage(s, refusedForm(s.form, err, FIELDS), 409);
  }
  s.seeOther(storePath(s.store, '/settings/notifications'), input.data ? 'The sender is saved.' : 'The emails go out from the platform’s sender again.');
}
