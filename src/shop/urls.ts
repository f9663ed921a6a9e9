import type { AppContext } from '../http/context.js';
import type { Platform } from '../platform.js';

/**
 * A store's shop as a browser on the platform's host reaches it (docs/shop.md, Host routing):
 * `<scheme>://<subdomain>.<STOREFRONT_BASE_DOMAIN>[:port]/`, by the scheme and port this request
 * came by, so the link works behind a TLS proxy and on `npm start`'s port alike.
 */
export function shopUrl(platform: Platform, ctx: AppContext, subdomain: string): string {
  const port = /:(\d+)$/.exec(ctx.host)?.[1];
  return `${ctx.protocol}://${subdomain}.${platform.config.storefront.baseDomain}${port ? `:${port}` : ''}/`;
}
