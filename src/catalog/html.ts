import sanitizeHtml from 'sanitize-html';

/**
 * Product and collection descriptions are merchant HTML shown on storefronts: keep formatting,
 * links and images; drop scripts, event handlers, styles and any URL scheme but http(s) and
 * mailto (so no `javascript:`).
 */
export function sanitizeDescription(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'h1', 'h2', 'span'],
    allowedAttributes: { a: ['href', 'title', 'target', 'rel'], img: ['src', 'alt', 'title', 'width', 'height'], '*': [] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
  });
}
