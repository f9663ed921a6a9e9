const ESCAPES = new Map([
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
  ["'", '&#39;'],
]);

/** Text as HTML text or a quoted attribute value. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES.get(c)!);
}

/** An http(s) URL or a site path (`/collections/all`), else null: what a rendered link may point at. */
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
