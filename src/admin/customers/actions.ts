import { requestCompliance } from '../../apps/index.js';
import {
  createAddress,
  CreateAddressBody,
  createCustomer,
  CreateCustomerBody,
  deleteAddress,
  getAddress,
  getCustomer,
  inviteCustomer,
  makeDefaultAddress,
  updateAddress,
  UpdateAddressBody,
  updateCustomer,
  UpdateCustomerBody,
} from '../../customers/index.js';
import { PlatformError } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import { blankForm, csrfInput, errorSummary, type FormState } from '../../http/ui/forms.js';
import { confirmStep, heading } from '../../http/ui/parts.js';
import { parsedBody, refusedForm } from '../forms.js';
import { storePage } from '../layout.js';
import { storePath, type StorePage } from '../request.js';
import { fullName } from './list.js';
import { ADDRESS_FIELDS, addressFields, addressValues, CUSTOMER_FIELDS, customerFields, customerPage, type CustomerPage } from './page.js';
import { formKeyInput } from '../../http/ui/once.js';

/**
 * The customer pages' actions (docs/admin.md, Customers), each through the customers service the
 * REST API uses (`/v1/customers`): create, edit, addresses (add, edit, make default, remove after
 * a confirm step), the invitation to open an account, and a privacy request passed on to the
 * store's apps (the compliance service of `/v1/app-store/compliance`). A form refused is its page
 * again, errors at their fields and input kept; success a 303 with a flash.
 */

type AddressPage = StorePage<{ storeId: string; customerId: string; addressId: string }>;

/** The customer form as the API's body: every field given (a blank one clears it), tags split at commas, consent from its checkbox. */
const customerBody = (form: ReadonlyMap<string, string>) => ({
  email: form.get('email') ?? '',
  first_name: form.get('first_name') ?? '',
  last_name: form.get('last_name') ?? '',
  phone: form.get('phone') ?? '',
  note: form.get('note') ?? '',
  tags: (form.get('tags') ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean),
  accepts_marketing: form.get('accepts_marketing') === 'on',
});

/** The address form as the API's body (the country code upper-cased: `gb` is GB). */
const addressBody = (form: ReadonlyMap<string, string>) =>
  Object.fromEntries([...ADDRESS_FIELDS].map((k) => [k, k === 'country_code' ? (form.get(k) ?? '').trim().toUpperCase() : (form.get(k) ?? '')]));

/** A refusal of the service a client caused (a conflict, too many invitations) as its message; anything else is thrown on, to be its error page. */
function refusal(err: unknown): string {
  if (err instanceof PlatformError && (err.kind === 'conflict' || err.kind === 'rate_limited' || err.kind === 'invalid_data')) return err.message;
  throw err;
}

/** A page of one form (Add customer, Edit address): a link back, the heading, the form posting to `action`. */
function formPage(
  s: StorePage,
  o: { back: { href: string; label: string }; title: string; action: string; form: FormState; fields: Markup; button: string },
  status: number,
) {
  const body = html`<p><a href="${o.back.href}">« ${o.back.label}</a></p>
    <div class="narrow">
      ${heading(o.title)}
      <form class="card" method="post" action="${o.action}" novalidate>
        ${csrfInput(s.viewer.csrf)}${errorSummary(o.form.problems)}${o.fields}
        <button class="button" type="submit">${o.button}</button>
      </form>
    </div>`;
  s.render(storePage(s, 'customers', { title: o.title, body }), status);
}

export function newCustomerPage(s: StorePage, form: FormState = blankForm(), status = 200): void {
  const back = { href: storePath(s.store, '/customers'), label: 'Customers' };
  formPage(
    s,
    { back, title: 'Add customer', action: storePath(s.store, '/customers/new'), form, fields: customerFields(form), button: 'Add customer' },
    status,
  );
}

export async function createCustomerAction(s: StorePage): Promise<void> {
  const input = parsedBody(CreateCustomerBody, customerBody(s.form), s.form, CUSTOMER_FIELDS);
  if (input.form) return newCustomerPage(s, input.form, 400);
  try {
    const c = await createCustomer(s.platform, s.store, input.data);
    s.seeOther(storePath(s.store, `/customers/${c.id}`), `${fullName(c) ?? c.email} is added.`);
  } catch (err) {
    newCustomerPage(s, refusedForm(s.form, err, CUSTOMER_FIELDS, new Map([['email_taken', 'email']])), 409);
  }
}

export async function updateCustomerAction(s: CustomerPage): Promise<void> {
  const input = parsedBody(UpdateCustomerBody, customerBody(s.form), s.form, CUSTOMER_FIELDS);
  if (input.form) return customerPage(s, { edit: input.form }, 400);
  try {
    await updateCustomer(s.platform, s.store.id, s.params.customerId, input.data);
  } catch (err) {
    return customerPage(s, { edit: refusedForm(s.form, err, CUSTOMER_FIELDS, new Map([['email_taken', 'email']])) }, 409);
  }
  s.seeOther(storePath(s.store, `/customers/${s.params.customerId}`), 'The customer is saved.');
}

export async function inviteAction(s: CustomerPage): Promise<void> {
  const back = storePath(s.store, `/customers/${s.params.customerId}`);
  try {
    const invite = await inviteCustomer(s.platform, s.store, s.params.customerId);
    s.seeOther(back, `An invitation to open an account is sent to ${invite.sent_to}.`);
  } catch (err) {
    s.seeOther(back, refusal(err));
  }
}

export async function addAddressAction(s: CustomerPage): Promise<void> {
  const input = parsedBody(CreateAddressBody, addressBody(s.form), s.form, ADDRESS_FIELDS);
  if (input.form) return customerPage(s, { address: input.form }, 400);
  try {
    await createAddress(s.platform, s.store.id, s.params.customerId, input.data);
  } catch (err) {
    return customerPage(s, { address: refusedForm(s.form, err, ADDRESS_FIELDS) }, 409);
  }
  s.seeOther(storePath(s.store, `/customers/${s.params.customerId}`), 'The address is added.');
}

export async function addressPage(s: AddressPage, form?: FormState, status = 200): Promise<void> {
  const a = await getAddress(s.platform, s.store.id, s.params.customerId, s.params.addressId);
  const shown = form ?? blankForm(addressValues(a));
  const back = storePath(s.store, `/customers/${s.params.customerId}`);
  const at = { back: { href: back, label: 'The customer' }, title: 'Edit address', action: `${back}/addresses/${a.id}` };
  formPage(s, { ...at, form: shown, fields: addressFields(shown), button: 'Save address' }, status);
}

export async function updateAddressAction(s: AddressPage): Promise<void> {
  const input = parsedBody(UpdateAddressBody, addressBody(s.form), s.form, ADDRESS_FIELDS);
  if (input.form) return addressPage(s, input.form, 400);
  try {
    await updateAddress(s.platform, s.store.id, s.params.customerId, s.params.addressId, input.data);
  } catch (err) {
    return addressPage(s, refusedForm(s.form, err, ADDRESS_FIELDS), 409);
  }
  s.seeOther(storePath(s.store, `/customers/${s.params.customerId}`), 'The address is saved.');
}

export async function defaultAddressAction(s: AddressPage): Promise<void> {
  await makeDefaultAddress(s.platform, s.store.id, s.params.customerId, s.params.addressId);
  s.seeOther(storePath(s.store, `/customers/${s.params.customerId}`), 'The default address is changed.');
}

export async function confirmDeleteAddress(s: AddressPage): Promise<void> {
  const a = await getAddress(s.platform, s.store.id, s.params.customerId, s.params.addressId);
  const back = storePath(s.store, `/customers/${s.params.customerId}`);
  const body = confirmStep({
    question: 'Remove this address?',
    detail: `${[a.address1, a.city, a.country_code].join(', ')}: the customer will no longer have it${a.default ? '; their oldest other address becomes the default' : ''}.`,
    action: `${back}/addresses/${a.id}/delete`,
    csrf: s.viewer.csrf,
    button: 'Remove the address',
    back: { href: back, label: 'Keep it' },
  });
  s.render(storePage(s, 'customers', { title: 'Remove this address?', body }));
}

export async function deleteAddressAction(s: AddressPage): Promise<void> {
  await deleteAddress(s.platform, s.store.id, s.params.customerId, s.params.addressId);
  s.seeOther(storePath(s.store, `/customers/${s.params.customerId}`), 'The address is removed.');
}

/** The two privacy requests a merchant passes on for a customer (docs/apps.md, Compliance webhooks). */
const PRIVACY = {
  'data-request': {
    topic: 'customers.data_request',
    question: 'Request this customer’s data from your apps?',
    detail: 'Every app installed in your store is asked for the data it holds about this customer and their orders, to send to them.',
    button: 'Send the data request',
    done: 'The data request is sent',
  },
  redact: {
    topic: 'customers.redact',
    question: 'Ask your apps to erase this customer’s data?',
    detail: 'Every app installed in your store is asked to erase what it holds about this customer and their orders. Apps cannot be asked to undo it.',
    button: 'Send the erasure request',
    done: 'The erasure request is sent',
  },
} as const;
type PrivacyKind = keyof typeof PRIVACY;

/** The confirm step of a privacy request: its form carries a key, the compliance service's Idempotency-Key, so a form sent twice asks once. */
export async function privacyPage(s: CustomerPage, kind: PrivacyKind, form: FormState = blankForm(), status = 200): Promise<void> {
  const c = await getCustomer(s.platform, s.store.id, s.params.customerId);
  const back = storePath(s.store, `/customers/${c.id}`);
  const text = PRIVACY[kind];
  const body = html`<div class="narrow">
    <form class="card" method="post" action="${back}/${kind}">
      ${csrfInput(s.viewer.csrf)}${formKeyInput(form)}${errorSummary(form.problems)}
      <h1>${text.question}</h1>
      <p><strong>${fullName(c) ?? c.email}</strong> (${c.email}). ${text.detail}</p>
      <div class="actions"><button class="button button--danger" type="submit">${text.button}</button><a href="${back}">Cancel</a></div>
    </form>
  </div>`;
  s.render(storePage(s, 'customers', { title: text.question, body }), status);
}

export async function privacyAction(s: CustomerPage, kind: PrivacyKind): Promise<void> {
  const c = await getCustomer(s.platform, s.store.id, s.params.customerId);
  const key = s.form.get('form_key');
  const body = { store_id: s.store.id, customer_id: c.id };
  const text = PRIVACY[kind];
  let apps: number;
  try {
    const input = kind === 'redact' ? { topic: 'customers.redact' as const, body } : { topic: 'customers.data_request' as const, body };
    apps = (await requestCompliance(s.platform, s.viewer.merchant.merchantId, s.store, key ? `admin:${key}` : undefined, input)).apps.length;
  } catch (err) {
    return privacyPage(s, kind, { ...blankForm(s.form), problems: [refusal(err)] }, 409);
  }
  s.seeOther(storePath(s.store, `/customers/${c.id}`), `${text.done} to ${apps} ${apps === 1 ? 'app' : 'apps'}.`);
}
