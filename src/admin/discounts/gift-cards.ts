import type { InputIssue } from '../../errors.js';
import {
  createGiftCard,
  CreateGiftCardBody,
  disableGiftCard,
  getGiftCard,
  listGiftCards,
  ListGiftCardsQuery,
  type GiftCardView,
} from '../../giftcards/index.js';
import { html } from '../../html.js';
import { blankForm, csrfInput, errorSummary, field, formWithIssues, textarea, type FormState } from '../../http/ui/forms.js';
import { pager } from '../../http/ui/pager.js';
import { badge, confirmStep, emptyState, facts, heading, link, table, when } from '../../http/ui/parts.js';
import { zodIssues } from '../../http/validate.js';
import { formatMoney } from '../../rendering/index.js';
import { refusedForm } from '../forms.js';
import { storePage } from '../layout.js';
import { onceScope, pagePosition, parseQuery, storePath, type StorePage } from '../request.js';
import { actOnce, formKeyInput } from '../../http/ui/once.js';
import { discountTabs } from './coupons.js';
import { minorUnits } from './inputs.js';

/**
 * `/admin/stores/<id>/discounts/gift-cards` (docs/admin.md, Discounts): the store's gift cards
 * with their balances, issue one, see one, disable one after a confirm step, through the gift
 * cards service of `/v1/products/gift-cards`. A card's full code is on one page only: the answer
 * to its issue (the service keeps only its hash and last four characters); every other page
 * shows it masked.
 */

type GiftCardPage = StorePage<{ storeId: string; giftCardId: string }>;
const FIELDS = new Set(['initial_value', 'code', 'expires_on', 'note']);

/** The code as every page but its issue's shows it: its last four characters. */
const masked = (g: Pick<GiftCardView, 'last_characters'>) => `•••• ${g.last_characters}`;
const status = (g: GiftCardView) => (g.status === 'active' ? badge('active', 'ok') : badge('disabled', 'bad'));

export async function giftCardsPage(s: StorePage): Promise<void> {
  const query = parseQuery(s, ListGiftCardsQuery);
  const page = await listGiftCards(s.platform, s.store.id, query);
  const path = storePath(s.store, '/discounts/gift-cards');
  const rows = page.items.map((g) => [
    link(`${path}/${g.id}`, masked(g)),
    formatMoney(g.balance, g.currency),
    formatMoney(g.initial_value, g.currency),
    status(g),
    g.expires_on,
    when(g.created_at),
  ]);
  const body = html`${heading('Discounts')}${discountTabs(s, 'gift-cards')}
    <p class="actions"><a class="button" href="${path}/new">Issue gift card</a></p>
    ${table({
      label: 'Gift cards',
      stack: true,
      headings: ['Code', 'Balance', 'Issued for', 'Status', 'Expires', 'Issued'],
      rows,
      empty: emptyState('No gift cards yet. A gift card holds a balance shoppers spend at checkout with its code.', {
        href: `${path}/new`,
        label: 'Issue gift card',
      }),
    })}${pager({ path, params: { limit: s.ctx.query.limit ? query.limit : undefined }, nextCursor: page.nextCursor, ...pagePosition(s) })}`;
  s.render(storePage(s, 'discounts', { title: 'Gift cards', body }));
}

export function newGiftCardPage(s: StorePage, form: FormState = blankForm(), code = 200): void {
  const path = storePath(s.store, '/discounts/gift-cards');
  const body = html`<p><a href="${path}">« Gift cards</a></p>
    <div class="narrow">
      ${heading('Issue gift card')}
      <form class="card" method="post" action="${path}/new" novalidate>
        ${csrfInput(s.viewer.csrf)}${formKeyInput(form)}${errorSummary(form.problems)}
        ${field(form, 'initial_value', `Value (${s.store.currency})`, { required: true, attrs: html`inputmode="decimal"` })}
        ${field(form, 'code', 'Code', { hint: 'Leave empty for a random 16-character code, or 8 to 20 letters and digits', attrs: html`autocapitalize="characters" spellcheck="false" autocomplete="off"` })}
        ${field(form, 'expires_on', 'Expires after (UTC day)', { type: 'date', hint: 'Leave empty for a card that never expires' })}
        ${textarea(form, 'note', 'Note', { rows: 2, maxlength: 500, hint: 'Only you see it' })}
        <button class="button" type="submit">Issue gift card</button>
      </form>
    </div>`;
  s.render(storePage(s, 'discounts', { title: 'Issue gift card', body }), code);
}

/** Issue a card: the answer is the one page that shows its full code (never a redirect, whose flash would carry it in a cookie). */
export async function issueGiftCardAction(s: StorePage): Promise<void> {
  const issues: InputIssue[] = [];
  const text = (name: string) => (s.form.get(name) ?? '').trim() || undefined;
  const parsed = CreateGiftCardBody.safeParse({
    initial_value: minorUnits(s.form, 'initial_value', s.store.currency, issues) ?? undefined,
    code: text('code'),
    expires_on: text('expires_on'),
    note: text('note'),
  });
  if (!parsed.success) issues.push(...zodIssues(parsed.error));
  if (issues.length || !parsed.success) return newGiftCardPage(s, formWithIssues(s.form, issues, FIELDS), 400);
  let card;
  try {
    // A double-clicked Issue issues one card, and the second answer shows its code too (src/http/ui/once.ts).
    const body = parsed.data;
    card = await actOnce(s.platform, onceScope(s, 'gift-card-issue', body), async () => {
      const made = await createGiftCard(s.platform, s.store, body);
      return { id: made.id, code: made.code, initial_value: made.initial_value, currency: made.currency, last_characters: made.last_characters };
    });
  } catch (err) {
    return newGiftCardPage(s, refusedForm(s.form, err, FIELDS, new Map([['gift_card_code_taken', 'code']])), 409);
  }
  const at = storePath(s.store, `/discounts/gift-cards/${card.id}`);
  const body = html`<div class="narrow">
    ${heading('Gift card issued', `${formatMoney(card.initial_value, card.currency)}, ready to spend in your shop.`)}
    <div class="card">
      <p>Its code, shown only this once: copy it now and give it to whoever gets the card.</p>
      <p style="font-size:1.5rem;font-family:monospace;overflow-wrap:anywhere"><strong>${card.code}</strong></p>
      <p class="muted">Afterwards only its last four characters are shown (${masked(card)}): the code is kept only as a hash, so it cannot be shown again.</p>
    </div>
    <p class="actions"><a class="button" href="${at}">Done</a><a href="${storePath(s.store, '/discounts/gift-cards/new')}">Issue another</a></p>
  </div>`;
  s.render(storePage(s, 'discounts', { title: 'Gift card issued', body }), 201);
}

export async function giftCardPage(s: GiftCardPage): Promise<void> {
  const g = await getGiftCard(s.platform, s.store.id, s.params.giftCardId);
  const at = storePath(s.store, `/discounts/gift-cards/${g.id}`);
  const body = html`<p><a href="${storePath(s.store, '/discounts/gift-cards')}">« Gift cards</a></p>
    ${heading(`Gift card ${masked(g)}`)}
    ${facts([
      ['Balance', html`<strong>${formatMoney(g.balance, g.currency)}</strong>`],
      ['Issued for', formatMoney(g.initial_value, g.currency)],
      ['Status', status(g)],
      ['Expires after', g.expires_on],
      ['Note', g.note],
      ['Issued', when(g.created_at)],
      ['Disabled', when(g.disabled_at)],
    ])}
    ${g.status === 'active' ? html`<p><a class="button button--danger" href="${at}/disable">Disable gift card</a></p>` : null}`;
  s.render(storePage(s, 'discounts', { title: `Gift card ${masked(g)}`, body }));
}

export async function confirmDisableGiftCard(s: GiftCardPage): Promise<void> {
  const g = await getGiftCard(s.platform, s.store.id, s.params.giftCardId);
  const at = storePath(s.store, `/discounts/gift-cards/${g.id}`);
  const body = confirmStep({
    question: `Disable gift card ${masked(g)}?`,
    detail: `Its balance of ${formatMoney(g.balance, g.currency)} can no longer be spent. This cannot be undone.`,
    action: `${at}/disable`,
    csrf: s.viewer.csrf,
    button: 'Disable the gift card',
    back: { href: at, label: 'Keep it' },
  });
  s.render(storePage(s, 'discounts', { title: 'Disable gift card?', body }));
}

export async function disableGiftCardAction(s: GiftCardPage): Promise<void> {
  const g = await disableGiftCard(s.platform, s.store.id, s.params.giftCardId);
  s.seeOther(storePath(s.store, `/discounts/gift-cards/${g.id}`), `Gift card ${masked(g)} is disabled.`);
}
