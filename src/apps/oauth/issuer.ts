import type { Platform } from '../../platform.js';

/**
 * The issuer (`iss`) of the platform's tokens and the base of the URLs it publishes:
 * PUBLIC_BASE_URL when set, else the scheme and host the request came to (behind proxies, with
 * TRUST_PROXY, the ones the client used). Not Koa's `ctx.origin`: that is the request's `Origin`
 * header, which the client writes.
 */
export function requestIssuer(platform: Platform, ctx: { protocol: string; host: string }): string {
  return platform.config.apps.issuer ?? `${ctx.protocol}://${ctx.host}`;
}
