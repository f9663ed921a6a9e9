const ESCAPES = new Map([
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
  ["'", '&#39;'],
]);

/**
 * Text as HTML text or a quoted attribute value: the engine of the `html` tag below, and of the
 * Liquid renderer's `escape` filter and output (src/rendering/liquid/). Pages never call it: they
 * interpolate text into `html`.
 */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES.get(c)!);
}

/**
 * HTML the platform trusts: what the `html` tag built, `raw()`'s constant markup, or merchant rich
 * text the sanitiser let through (`merchantHtml`). The class is not exported, so nothing else can
 * make one: a string is always text.
 */
class TrustedHtml {
  constructor(readonly html: string) {}
}
export type Markup = TrustedHtml;

/** What `html` takes between its literals: markup as it is; text (and numbers) escaped; arrays joined; null, undefined and false as nothing. */
export type Interpolation = Markup | string | number | null | undefined | false | readonly Interpolation[];

function htmlOf(value: Interpolation): string {
  if (value instanceof TrustedHtml) return value.html;
  if (Array.isArray(value)) return (value as readonly Interpolation[]).map(htmlOf).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(value);
}

/**
 * The one way pages write HTML: ``html`<p class="${cls}">${text}</p>` `` escapes every
 * interpolated string (in text and in attributes alike, so every attribute is quoted), keeps
 * Markup as it is, and joins arrays. A value never becomes markup by being a string.
 */
export function html(literals: TemplateStringsArray, ...values: readonly Interpolation[]): Markup {
  let out = literals[0]!;
  for (let i = 0; i < values.length; i++) out += htmlOf(values[i]!) + literals[i + 1]!;
  return new TrustedHtml(out);
}

/** Markup parts joined (a list's items, a page's sections). */
export const joinMarkup = (parts: readonly Interpolation[]): Markup => new TrustedHtml(htmlOf(parts));

/**
 * The platform's own constant markup (an inline stylesheet, a script, an SVG icon): its type
 * takes only a string literal, so nothing computed (and nothing a client sent) can pass.
 */
export function raw<const T extends string>(constant: string extends T ? never : T): Markup {
  return new TrustedHtml(constant);
}

/**
 * Merchant rich text as stored: HTML that `sanitizeMerchantHtml` (src/merchant-html.ts) cleaned
 * when it was written (a product's description, a page's or an article's body), or cleans now
 * (`sanitizedMerchantHtml` there). Nothing else may be passed here.
 */
export function merchantHtml(sanitised: string): Markup {
  return new TrustedHtml(sanitised);
}

/**
 * An http(s) URL or a site path (`/collections/all`), else null: what a rendered link may point
 * at. A `javascript:`, `data:` or protocol-relative (`//evil.example`) address is refused.
 */
export function safeHref(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (/^\/(?!\/)[^\s]*$/.test(value)) return value;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** JSON for a `<script>` element or a single-quoted attribute: no `<`, `>`, `&`, `'` or line separators left literal. */
export function scriptSafeJson(value: unknown): string {
  return (JSON.stringify(value ?? null) ?? 'null').replace(/[<>&'\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
