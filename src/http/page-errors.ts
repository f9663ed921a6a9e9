import { PlatformError } from '../errors.js';
import type { Platform } from '../platform.js';
import type { AppContext } from './context.js';
import { STATUS, toPlatformError } from './errors.js';
import { join, markup, platformPage, sendPage } from './page.js';

/**
 * Errors of the platform's own pages (docs/console.md): an HTML page with the status, never the
 * API's JSON envelope. A refusal says what went wrong; an unexpected error shows only the request
 * id (logged as `pages.unhandled_error`).
 */
export function sendErrorPage(ctx: AppContext, status: number, title: string, message: string, back?: { href: string; label: string }): void {
  const link = back ? join(markup('<p><a class="button button--secondary" href="'), back.href, markup('">'), back.label, markup('</a></p>')) : markup('');
  const body = join(markup('<div class="narrow"><div class="card"><h1>'), title, markup('</h1><p>'), message, markup('</p>'), link, markup('</div></div>'));
  sendPage(ctx, status, platformPage({ title, body }));
}

/** A page's handler with its errors answered as pages (a 429's or 503's `Retry-After` kept). */
export function pageHandler(platform: Platform, handler: (ctx: AppContext) => Promise<void>): (ctx: AppContext) => Promise<void> {
  return async (ctx) => {
    try {
      await handler(ctx);
    } catch (raw) {
      const err = toPlatformError(raw);
      if (!err) {
        platform.log.error({ event: 'pages.unhandled_error', request_id: ctx.state.requestId, err: raw }, 'unhandled error');
        return sendErrorPage(ctx, 500, 'Something went wrong', `Something went wrong on our side (reference ${ctx.state.requestId}). Please try again.`);
      }
      if (err.extra.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(err.extra.retryAfterSeconds));
      const status = STATUS[err.kind];
      const title =
        status === 403
          ? 'Not allowed'
          : status === 404
            ? 'Not found'
            : status === 429
              ? 'Too many attempts'
              : status === 503
                ? 'Temporarily unavailable'
                : 'That did not work';
      sendErrorPage(ctx, status, title, err.message, { href: '/', label: 'Go to Emporium' });
    }
  };
}

/** A GET of a page address that takes only a form's POST (a bookmark, a reload): a 405 page with `Allow: POST`. */
export function postOnlyPage(platform: Platform): (ctx: AppContext) => Promise<void> {
  return pageHandler(platform, (ctx) => {
    ctx.set('Allow', 'POST');
    return Promise.reject(
      new PlatformError('method_not_allowed', 'method_not_allowed', 'This address takes a form: go back to the page and send it from there'),
    );
  });
}
