import { html } from '../../html.js';
import { facts, heading, link } from '../../http/ui/parts.js';
import { shopUrl } from '../../shop/index.js';
import { getLiveTheme } from '../../themes/index.js';
import { storePage } from '../layout.js';
import type { StorePage } from '../request.js';

/** `/admin/stores/<id>`: the store at a glance (docs/admin.md, Home). */
export async function homePage(p: StorePage): Promise<void> {
  const theme = await getLiveTheme(p.platform, p.store);
  const shop = shopUrl(p.platform, p.ctx, p.store.subdomain);
  const body = html`${heading(p.store.name, 'Home')}
    <h2>Your shop</h2>
    ${facts([
      ['Address', link(shop, shop)],
      ['Live theme', theme ? `${theme.slug} ${theme.version}` : 'None yet: install a theme to open the shop'],
      ['Currency', p.store.currency],
    ])}`;
  p.render(storePage(p, 'home', { title: 'Home', body }));
}
