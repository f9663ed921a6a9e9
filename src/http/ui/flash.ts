import { timingSafeEqual } from 'node:crypto';
import { html, type Markup } from '../../html.js';
import type { Platform } from '../../platform.js';
import { clearCookie, formToken, readCookie, setCookie } from '../browser.js';
import type { AppContext } from '../context.js';

/**
 * A flash message (docs/console.md, Forms): what a form did, said once on the page its 303 leads
 * to. It travels in a short-lived cookie (`emporium_flash`, `__Host-` outside development, a
 * minute) signed with the pages' key, so no other site or host can put words in a page; it is
 * read once and cleared, and shown as text.
 */
const FLASH_COOKIE = 'emporium_flash';
const FLASH_MS = 60_000;
/** Room for the message in the cookie's 400 characters, beside the signature. */
const PAYLOAD_CHARS = 340;

const signature = (platform: Platform, payload: string) => formToken(platform, `flash|${payload}`);

export function setFlash(platform: Platform, ctx: AppContext, message: string): void {
  const expires = platform.clock.now().getTime() + FLASH_MS;
  let text = message;
  let payload = '';
  // Shortened until it fits: a flash is a sentence, not a report.
  for (;;) {
    payload = Buffer.from(JSON.stringify({ m: text, e: expires })).toString('base64url');
    if (payload.length <= PAYLOAD_CHARS) break;
    text = `${[...text].slice(0, Math.floor([...text].length * 0.8)).join('')}…`;
  }
  setCookie(platform, ctx, FLASH_COOKIE, `${payload}.${signature(platform, payload)}`, FLASH_MS);
}

/** The flash message this browser carries, if any, signed and not expired; the cookie goes either way. */
export function takeFlash(platform: Platform, ctx: AppContext): string | null {
  const value = readCookie(platform, ctx, FLASH_COOKIE);
  if (!value) return null;
  clearCookie(platform, ctx, FLASH_COOKIE);
  const [payload = '', sent = ''] = value.split('.');
  const expected = signature(platform, payload);
  if (sent.length !== expected.length || !timingSafeEqual(Buffer.from(sent), Buffer.from(expected))) return null;
  try {
    const { m, e } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { m?: unknown; e?: unknown };
    return typeof m === 'string' && typeof e === 'number' && e > platform.clock.now().getTime() ? m : null;
  } catch {
    return null;
  }
}

/** A flash message on the page: a status line, its text escaped. */
export const flashNotice = (message: string): Markup => html`<p class="notice" role="status">${message}</p>`;
