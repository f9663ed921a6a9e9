import { html, type Markup } from '../../html.js';
import type { CustomerView } from '../../customers/index.js';
import type { OrderView } from '../../orders/index.js';

/** Who placed an order: the customer's name (escaped, as all text), else the order's email, else a dash. */
export function customerName(
  o: Pick<OrderView, 'email'>,
  customer: Pick<CustomerView, 'first_name' | 'last_name' | 'email'> | undefined,
): Markup | string | null {
  const name = [customer?.first_name, customer?.last_name].filter(Boolean).join(' ');
  const email = o.email ?? customer?.email ?? null;
  if (name && email) return html`${name}<br><span class="muted">${email}</span>`;
  return name || email;
}
