import { isLocalEnv } from '../../config.js';
import { PlatformError } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import { csrfInput, errorSummary, hiddenInput } from '../../http/ui/forms.js';
import { pager, withQuery } from '../../http/ui/pager.js';
import { badge, emptyState, facts, heading, link, table, when } from '../../http/ui/parts.js';
import { IdString } from '../../ids.js';
import { resolveReference, translator } from '../../rendering/index.js';
import {
  createPurchase,
  getCatalogTheme,
  installTheme,
  isThemePurchased,
  listCatalog,
  simulatePurchasePayment,
  themeSchema,
  ThemeCatalogQuery,
  verifyPurchase,
  type CatalogThemeView,
} from '../../themes/index.js';
import { storePage } from '../layout.js';
import { onceScope, pagePosition, parseQuery, type StorePage } from '../request.js';
import { actOnce, formKeyInput } from '../../http/ui/once.js';
import { catalogPreview } from './catalog-preview.js';
import { catalogPath, priceOf, themesPath, themesTabs, type CatalogPage } from './paths.js';

/**
 * The theme store (docs/admin.md, Themes): the marketplace catalog of `GET /v1/themes`, a theme's
 * page with its preview (./catalog-preview.ts) and what it offers, and Install (`installTheme`, as `POST /v1/themes/:slug/install`) or,
 * for a paid theme the store has not bought, Buy: a purchase with the platform's sandbox provider
 * (`createPurchase`), its checkout (simulated in development and test only, as the API's
 * `…/purchase/simulate`), the signed payment verified (`verifyPurchase`), back to the theme's page.
 */

const FILTERS = [
  { label: 'All', pricing: undefined },
  { label: 'Free', pricing: 'free' },
  { label: 'Paid', pricing: 'paid' },
] as const;

/** The catalog: each published theme with its author, price, version and what it renders, 50 a page over the API's cursors. */
export async function catalogStorePage(s: StorePage): Promise<void> {
  const query = parseQuery(s, ThemeCatalogQuery);
  const page = await listCatalog(s.platform, query);
  const params = { pricing_type: query.pricing_type, site_type: query.site_type };
  const filters = html`<p class="actions" aria-label="Price">
    ${FILTERS.map((f) =>
      f.pricing === query.pricing_type
        ? html`<strong>${f.label}</strong>`
        : html`<a href="${withQuery(catalogPath(s), { ...params, pricing_type: f.pricing })}">${f.label}</a>`,
    )}
  </p>`;
  const body = html`${heading('Theme store', 'Themes reviewed by the platform, free or paid. Installing one does not change your shop until you publish it.')}
    ${themesTabs(s, 'store')}${filters}
    ${table({
      label: 'Themes in the theme store',
      headings: ['Theme', 'Author', 'Price', 'Version', 'Templates'],
      rows: page.items.map((t) => [
        html`${link(catalogPath(s, t.slug), t.name)}<br><span class="muted">${t.site_types.join(', ')}</span>
          <br><a href="${catalogPath(s, t.slug)}#preview">Preview ${t.name}</a>`,
        t.author_name,
        priceOf(t),
        t.version,
        t.templates.join(', '),
      ]),
      empty: emptyState(query.pricing_type ? `No ${query.pricing_type} theme is in the theme store yet.` : 'The theme store has no themes yet.'),
      stack: true,
    })}
    ${pager({ path: catalogPath(s), params, nextCursor: page.nextCursor, ...pagePosition(s) })}`;
  s.render(storePage(s, 'themes', { title: 'Theme store', body }));
}

/** What a theme offers, from its published version: its sections, settings groups and languages. */
async function offers(s: CatalogPage, t: CatalogThemeView): Promise<Markup> {
  const schema = await themeSchema(s.platform, t.slug, s.viewer.merchant);
  const tr = translator(schema.locales, s.store.locale);
  const label = (value: string) => String(resolveReference(value, tr));
  const sections = Object.values(schema.sections).map((d) => label(d.name));
  return facts([
    ['Templates', t.templates.join(', ')],
    ['Sections', sections.join(', ')],
    ['Theme settings', schema.settings_schema.settings.map((g) => label(g.label)).join(', ')],
    ['Languages', Object.keys(schema.locales).join(', ')],
    ['Engine', `${t.engine} (renderer ${schema.renderer.renderer_version})`],
  ]);
}

/** The theme's page: its details, and Install or Buy (`problem`: a refusal of either, said above them). */
export async function catalogThemePage(s: CatalogPage, problem: string | null = null, status = 200): Promise<void> {
  const t = await getCatalogTheme(s.platform, s.params.slug, s.viewer.merchant);
  const bought = t.pricing_type !== 'free' && t.visibility === 'marketplace' && (await isThemePurchased(s.platform, s.store.id, t.package_id));
  const needsPurchase = t.pricing_type !== 'free' && t.visibility === 'marketplace' && !bought;
  const action = needsPurchase
    ? html`<form method="post" action="${catalogPath(s, t.slug, '/buy')}">
        ${csrfInput(s.viewer.csrf)}
        <p>${t.name} costs ${priceOf(t)}, paid once for this store (later versions included).</p>
        <button class="button" type="submit">Buy ${priceOf(t)}</button>
      </form>`
    : html`<form method="post" action="${catalogPath(s, t.slug, '/install')}">
        ${csrfInput(s.viewer.csrf)}${formKeyInput()}
        <p>${
          s.store.live_theme_id
            ? 'It installs beside your live theme and stays unpublished: preview it and customize it, then publish it when it is ready.'
            : 'Your shop has no live theme, so this one goes live as soon as it is installed.'
        }</p>
        <button class="button" type="submit">Install ${t.name}</button>
      </form>`;
  const body = html`${heading(t.name, `by ${t.author_name}`)}
    ${themesTabs(s, null)}
    ${errorSummary(problem ? [problem] : [], 'It could not be done')}
    ${facts([
      ['Price', html`${priceOf(t)}${bought ? html` ${badge('purchased for this store', 'ok')}` : null}`],
      ['Version', `${t.version} (published ${t.published_at.slice(0, 10)})`],
      ['Review', t.visibility === 'private' ? badge('your private theme: not reviewed, not listed', 'neutral') : badge('reviewed and approved', 'ok')],
      ['Site types', t.site_types.join(', ')],
    ])}
    <div class="card">${action}</div>
    ${catalogPreview(s, t)}
    <h2>What it offers</h2>
    ${await offers(s, t)}
    <p><a href="${catalogPath(s)}">Back to the theme store</a></p>`;
  // The page frames only its own preview (src/http/page.ts: a strict policy, script from this site only).
  s.render(storePage(s, 'themes', { title: t.name, body }), status, { frames: ["'self'"] });
}

/** A refusal a merchant can act on, as the theme page's message and its status; anything else is thrown on (the error page). */
function refusal(err: unknown, t: { name: string }): { message: string; status: number } {
  if (!(err instanceof PlatformError)) throw err;
  if (err.code === 'purchase_required') return { message: `${t.name} is a paid theme: buy it for this store first, then install it.`, status: 402 };
  if (err.code === 'provider_not_supported')
    return { message: 'Paid themes cannot be bought here yet: the platform has no payment provider for them.', status: 404 };
  if (err.kind === 'conflict') return { message: err.message, status: 409 };
  throw err;
}

export async function installAction(s: CatalogPage): Promise<void> {
  const t = await getCatalogTheme(s.platform, s.params.slug, s.viewer.merchant);
  try {
    // A double-clicked Install installs one copy (src/http/ui/once.ts).
    const installed = await actOnce(s.platform, onceScope(s, `theme-install:${t.slug}`, { slug: t.slug }), async () => {
      const made = await installTheme(s.platform, s.viewer.merchant, s.store, t.slug, false);
      return { id: made.id, role: made.role };
    });
    const live = installed.role === 'live';
    s.seeOther(
      themesPath(s),
      live ? `${t.name} is installed and live: your shop is open.` : `${t.name} is installed. Preview it, customize it, then publish it.`,
    );
  } catch (err) {
    const { message, status } = refusal(err, t);
    await catalogThemePage(s, message, status);
  }
}

/** Buy: the store's pending purchase (the same one again while it is pending), and its checkout with the platform's provider. */
export async function buyAction(s: CatalogPage): Promise<void> {
  const t = await getCatalogTheme(s.platform, s.params.slug, s.viewer.merchant);
  let purchase;
  try {
    purchase = (await createPurchase(s.platform, s.viewer.merchant, s.store, t.slug)).purchase;
  } catch (err) {
    const { message, status } = refusal(err, t);
    return catalogThemePage(s, message, status);
  }
  // The sandbox's hosted checkout exists in development and test only (docs/themes.md, Purchases): elsewhere it would sell for nothing.
  const pay = isLocalEnv(s.platform.config)
    ? html`<form method="post" action="${catalogPath(s, t.slug, '/pay')}">
        ${csrfInput(s.viewer.csrf)}${hiddenInput('purchase_id', purchase.id)}
        <button class="button" type="submit">Pay ${priceOf({ pricing_type: 'paid', price: purchase.amount, currency: purchase.currency })}</button>
      </form>`
    : html`<p>The sandbox’s checkout is simulated in development and test only; here the purchase waits for a payment signed by the platform’s provider.</p>`;
  const body = html`<div class="narrow">
    <div class="card">
      <h1>Sandbox checkout</h1>
      <p>${t.name} for ${s.store.name}: ${priceOf({ pricing_type: 'paid', price: purchase.amount, currency: purchase.currency })}, paid to the platform.
        The sandbox is the platform’s test provider: no money changes hands.</p>
      ${facts([
        ['Order', purchase.provider_order_id],
        ['Started', when(purchase.created_at)],
      ])}
      ${pay}
      <p><a href="${catalogPath(s, t.slug)}">Cancel and go back to ${t.name}</a></p>
    </div>
  </div>`;
  s.render(storePage(s, 'themes', { title: `Buy ${t.name}`, body }));
}

const PayForm = IdString('purchase');

/** Pay (the sandbox's checkout): its signed payment of the purchase's provider order, verified as the provider's return would be. */
export async function payAction(s: CatalogPage): Promise<void> {
  const t = await getCatalogTheme(s.platform, s.params.slug, s.viewer.merchant);
  const purchaseId = PayForm.safeParse(s.form.get('purchase_id') ?? '');
  if (!isLocalEnv(s.platform.config) || !purchaseId.success) return catalogThemePage(s, 'That checkout is not one of this store’s purchases.', 400);
  const payment = await simulatePurchasePayment(s.platform, s.store, t.slug, purchaseId.data);
  try {
    await verifyPurchase(s.platform, s.store, t.slug, {
      store_id: s.store.id,
      purchase_id: payment.purchase_id,
      provider_payment_id: payment.provider_payment_id,
      signature: payment.signature,
    });
  } catch (err) {
    const { message, status } = refusal(err, t);
    return catalogThemePage(s, message, status);
  }
  s.seeOther(catalogPath(s, t.slug), `${t.name} is purchased for this store: install it.`);
}
