import { listCustomers, ListCustomersQuery, type CustomerView } from '../../customers/index.js';
import { html } from '../../html.js';
import { blankForm, field } from '../../http/ui/forms.js';
import { pager } from '../../http/ui/pager.js';
import { emptyState, heading, link, table } from '../../http/ui/parts.js';
import { formatMoney } from '../../rendering/index.js';
import { exportButton } from '../exports/new.js';
import { storePage } from '../layout.js';
import { pagePosition, parseQuery, storePath, type StorePage } from '../request.js';

/**
 * `/admin/stores/<id>/customers` (docs/admin.md, Customers): the store's customers a page at a
 * time over the API's cursors (`listCustomers` with the REST API's own query schema), searched as
 * the API searches them: the beginning of an email, a first or last name, or the full name.
 */

/** A customer's name, or null when they gave none (the email then says who it is). */
export const fullName = (c: Pick<CustomerView, 'first_name' | 'last_name'>) => [c.first_name, c.last_name].filter(Boolean).join(' ') || null;

export async function customersPage(s: StorePage): Promise<void> {
  const query = parseQuery(s, ListCustomersQuery);
  const page = await listCustomers(s.platform, s.store.id, query);
  const path = storePath(s.store, '/customers');
  const sent = typeof s.ctx.query.query === 'string' ? s.ctx.query.query : '';
  const search = html`<form class="card" method="get" action="${path}" role="search">
    ${field(blankForm(new Map([['query', sent]])), 'query', 'Search', { type: 'search', hint: 'The beginning of an email, a first or last name, or a full name' })}
    <div class="actions"><button class="button" type="submit">Search</button>${sent ? html`<a href="${path}">Clear search</a>` : null}</div>
  </form>`;
  const rows = page.items.map((c) => [
    link(storePath(s.store, `/customers/${c.id}`), fullName(c) ?? c.email),
    c.email,
    String(c.orders_count),
    formatMoney(c.total_spent, c.currency),
  ]);
  const empty = sent
    ? emptyState('No customer matches this search.', { href: path, label: 'Clear search' })
    : emptyState('No customers yet. Customers who order in your shop or open an account show here; you can add one yourself.', {
        href: `${path}/new`,
        label: 'Add customer',
      });
  const body = html`${heading('Customers')}
    <p class="actions">${exportButton(s, 'customers', new Map(sent ? [['query', sent]] : []))}<a class="button" href="${path}/new">Add customer</a></p>
    ${search}${table({ label: 'Customers', headings: ['Name', 'Email', 'Orders', 'Total spent'], rows, empty, stack: true })}${pager({
      path,
      params: { query: sent, limit: s.ctx.query.limit ? query.limit : undefined },
      nextCursor: page.nextCursor,
      ...pagePosition(s),
    })}`;
  s.render(storePage(s, 'customers', { title: 'Customers', body }));
}
