import { notFound, PlatformError } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import { blankForm, field, formWithIssues, textarea, type FormState } from '../../http/ui/forms.js';
import { badge } from '../../http/ui/parts.js';
import { listProviderSettings, updateProviderSettings, type Provider, type ProviderSettingsView } from '../../payments/index.js';
import { checkbox } from '../discounts/inputs.js';
import { refusedForm } from '../forms.js';
import { storePath, type StorePage } from '../request.js';
import { settingsForm, settingsPage } from './index.js';

/**
 * `/admin/stores/<id>/settings/payments` (docs/admin.md, Settings): each payment provider as the
 * API has it (`GET` and `PUT /v1/payments/providers`, the payments service), a form of its own:
 * on or off, test mode, and its keys write-only. A key is never shown again, not even in a form
 * sent back with an error: the page says only whether it is set and its last four characters (the
 * service keeps them in clear for that), and its input is always empty; one left empty keeps the
 * stored key.
 */

export type PaymentsPage = StorePage<{ storeId: string; provider: string }>;

/** What the page says of each provider, its credentials' labels (the API's names), and whether it has a test mode. */
const PROVIDER_FORMS: Record<Provider, { title: string; text: string; keys: readonly (readonly [string, string])[]; testMode: boolean }> = {
  stripe: {
    title: 'Stripe',
    text: 'Cards through your Stripe account.',
    keys: [
      ['secret_key', 'Secret key (sk_test_… or sk_live_…)'],
      ['webhook_secret', 'Webhook signing secret (whsec_…)'],
    ],
    testMode: true,
  },
  paypal: {
    title: 'PayPal',
    text: 'PayPal through your PayPal business account.',
    keys: [
      ['client_id', 'Client id'],
      ['client_secret', 'Client secret'],
    ],
    testMode: true,
  },
  manual: {
    title: 'Manual payment',
    text: 'The shopper pays another way (a bank transfer, cash on delivery); you mark the order paid.',
    keys: [],
    testMode: false,
  },
  sandbox: {
    title: 'Sandbox',
    text: 'Test payments inside the platform, signed as a real provider signs them, to try checkout end to end. No money moves.',
    keys: [['key_secret', 'Signing secret (16 or more of A-Z a-z 0-9 _ -)']],
    testMode: false,
  },
};

const settingsValues = (p: ProviderSettingsView) =>
  new Map([
    ['enabled', p.enabled ? 'on' : ''],
    ['test_mode', p.test_mode ? 'on' : ''],
    ['instructions', p.instructions ?? ''],
  ]);

/** A key's input: always empty; its hint whether one is stored, and its last four characters. */
function keyField(form: FormState, p: ProviderSettingsView, name: string, label: string): Markup {
  const hint = Object.hasOwn(p.credential_hints, name) ? p.credential_hints[name] : undefined;
  return field(form, name, label, {
    type: 'password',
    id: `f-${p.provider}-${name}`,
    autocomplete: 'off',
    hint: hint ? `Set, ending in ${hint}. Leave empty to keep it.` : 'Not set.',
  });
}

function providerCard(s: StorePage, p: ProviderSettingsView, form: FormState): Markup {
  const o = PROVIDER_FORMS[p.provider];
  const fields = html`<h2 id="${p.provider}" style="margin-top:0">${o.title} ${p.enabled ? badge('on', 'ok') : badge('off')}${
    o.testMode && p.enabled && p.test_mode ? html` ${badge('test mode', 'warn')}` : null
  }</h2>
    <p class="muted">${o.text}</p>
    ${checkbox(form, 'enabled', `Offer ${o.title} at checkout`)}${o.testMode ? checkbox(form, 'test_mode', 'Test mode') : null}
    ${o.keys.map(([name, label]) => keyField(form, p, name, label))}
    ${p.provider === 'manual' ? textarea(form, 'instructions', 'Instructions to the shopper', { rows: 3, maxlength: 2000 }) : null}`;
  return settingsForm(s, { action: storePath(s.store, `/settings/payments/${p.provider}`), form, fields, button: `Save ${o.title}` });
}

/** The page; `failed` a provider's form shown again with its errors (the others as stored). */
export async function paymentsPage(s: StorePage, failed?: { provider: Provider; form: FormState }, status = 200): Promise<void> {
  const { items } = await listProviderSettings(s.platform, s.store.id);
  const body = html`${items.map((p) => providerCard(s, p, failed?.provider === p.provider ? failed.form : blankForm(settingsValues(p))))}`;
  settingsPage(s, { title: 'Payments', lead: 'Checkout offers each provider that is on. Keys are stored encrypted and never shown again.', body }, status);
}

/** The fields an issue may sit at: the API's issue at `credentials.<name>` is at that key's field. */
const fieldsOf = (provider: Provider) => new Set(['enabled', 'test_mode', 'instructions', ...PROVIDER_FORMS[provider].keys.map(([n]) => n)]);

function refusedProvider(form: ReadonlyMap<string, string>, err: unknown, provider: Provider): FormState {
  if (err instanceof PlatformError && err.extra.issues?.length)
    return formWithIssues(
      form,
      err.extra.issues.map((i) => ({ ...i, path: i.path.replace(/^credentials\./, '') })),
      fieldsOf(provider),
    );
  return refusedForm(form, err, fieldsOf(provider));
}

export async function saveProvider(s: PaymentsPage): Promise<void> {
  if (!Object.hasOwn(PROVIDER_FORMS, s.params.provider)) throw notFound('Payment provider');
  const provider = s.params.provider as Provider;
  const o = PROVIDER_FORMS[provider];
  const typed = o.keys.flatMap(([name]) => (s.form.get(name)?.trim() ? [[name, s.form.get(name)!.trim()] as const] : []));
  const body = {
    enabled: s.form.get('enabled') === 'on',
    ...(o.testMode ? { test_mode: s.form.get('test_mode') === 'on' } : {}),
    ...(typed.length ? { credentials: Object.fromEntries(typed) } : {}),
    ...(provider === 'manual' ? { instructions: s.form.get('instructions')?.trim() || null } : {}),
  };
  try {
    await updateProviderSettings(s.platform, s.store.id, provider, body);
  } catch (err) {
    return paymentsPage(s, { provider, form: refusedProvider(s.form, err, provider) }, err instanceof PlatformError && err.kind === 'conflict' ? 409 : 400);
  }
  s.seeOther(storePath(s.store, '/settings/payments'), `${o.title} is saved${body.enabled ? ' and on' : ' and off'}.`);
}
