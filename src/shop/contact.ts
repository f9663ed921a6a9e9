import { z } from 'zod';
import { subscribeToNewsletter } from '../customers/index.js';
import { PlatformError } from '../errors.js';
import { html } from '../html.js';
import { clientAddress } from '../http/client-address.js';
import { csrfInput, errorSummary, field, formWithIssues, hiddenInput, type FormState } from '../http/ui/forms.js';
import { zodIssues } from '../http/validate.js';
import { consumeRateLimit } from '../ratelimit/index.js';
import { CheckoutBody } from '../storefront/index.js';
import type { ShopPage } from './context.js';
import { shopPage } from './layout.js';

/**
 * POST /contact with `form_type=customer`: the themes' newsletter form (Shopify's customer form:
 * `contact[email]`, `contact[tags]`), docs/shop.md, Newsletter. The store's customer of the email
 * accepts email marketing (made when there is none, never with an account); then 303 back to
 * the page it was sent from, `?customer_posted=true#<form_id>`, where the theme shows its thanks.
 * Its CSRF rule is the shop's (a page for everyone carries no token: the cross-origin check
 * holds); it is limited per address and per email, as sign-ups are.
 */

const ContactForm = z.object({
  form_type: z.literal('customer', { message: 'must be customer' }),
  'contact[email]': CheckoutBody.shape.email,
  'contact[tags]': z.string().max(200).optional(),
  form_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,80}$/)
    .optional(),
});

const TAG = /^[\p{L}\p{N} _-]{1,40}$/u;
const WINDOW = 60 * 60;
const LIMITS = { ip: 20, email: 3 };

/** Where the shopper goes back to: the page the form was on (this host's, by its Referer), else home. */
function backTo(p: ShopPage, formId: string | undefined): string {
  let path = '/';
  try {
    const referer = new URL(p.ctx.get('Referer'));
    if (referer.host === p.ctx.host) {
      referer.searchParams.delete('customer_posted');
      path = `${referer.pathname}${referer.search ? `${referer.search}&` : '?'}`;
    }
  } catch {
    // No Referer, or not a URL: home.
  }
  if (path === '/') path = '/?';
  return `${path}customer_posted=true${formId ? `#${formId}` : ''}`;
}

function formPage(p: ShopPage, form: FormState, status: number): void {
  const email = form.values.get('contact[email]') ?? '';
  const body = html`<div style="max-width:460px;margin:0 auto">
    <form class="card" method="post" action="/contact">
      ${csrfInput(p.viewer.csrf)}${hiddenInput('form_type', 'customer')}${hiddenInput('contact[tags]', 'newsletter')}
      <h1>Newsletter</h1>
      ${errorSummary(form.problems, 'Please check the form.')}${field({ ...form, values: new Map([['contact[email]', email]]) }, 'contact[email]', 'Email', {
        type: 'email',
        required: true,
        autocomplete: 'email',
      })}
      <p style="margin-bottom:0"><button type="submit" class="button">Subscribe</button></p>
    </form>
  </div>`;
  p.render(
    shopPage({ storeName: p.viewer.store.name, title: 'Newsletter', body, signedIn: p.viewer.customer !== null, csrf: p.viewer.csrf, look: p.viewer.look }),
    status,
  );
}

export async function contact(p: ShopPage): Promise<void> {
  const parsed = ContactForm.safeParse(Object.fromEntries([...p.form].filter(([k]) => k !== 'csrf_token')));
  if (!parsed.success) {
    const issues = zodIssues(parsed.error).map((i) => (i.path === 'contact[email]' ? { ...i, message: 'enter an email address, such as you@example.com' } : i));
    return formPage(p, formWithIssues(p.form, issues), 400);
  }
  const email = parsed.data['contact[email]'];
  const tags = [
    ...new Set(
      (parsed.data['contact[tags]'] ?? 'newsletter')
        .split(',')
        .map((t) => t.trim())
        .filter((t) => TAG.test(t)),
    ),
  ].slice(0, 5);
  const store = p.viewer.store;
  try {
    await consumeRateLimit(p.platform, [
      { bucket: `shop.newsletter:ip:${clientAddress(p.ctx)}`, limit: LIMITS.ip, windowSeconds: WINDOW },
      { bucket: `shop.newsletter:email:${store.id}:${email}`, limit: LIMITS.email, windowSeconds: WINDOW },
    ]);
  } catch (err) {
    if (!(err instanceof PlatformError && err.kind === 'rate_limited')) throw err;
    if (err.extra.retryAfterSeconds !== undefined) p.ctx.set('Retry-After', String(err.extra.retryAfterSeconds));
    return formPage(p, { values: p.form, errors: new Map(), problems: ['Too many sign-ups from here: wait a while and try again.'] }, 429);
  }
  await subscribeToNewsletter(p.platform, { id: store.id, currency: store.currency }, email, tags.length ? tags : ['newsletter']);
  p.seeOther(backTo(p, parsed.data.form_id));
}
