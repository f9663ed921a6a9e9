import sanitizeHtml from 'sanitize-html';
import { merchantHtml, type Markup } from './html.js';

/**
 * The one policy for merchant HTML shown on storefronts (product and collection descriptions,
 * a theme's `richtext` settings): formatting, links and images kept; scripts, event handlers,
 * styles and every URL scheme but http(s) and mailto (so no `javascript:`) dropped; links get
 * `rel="noopener noreferrer"`.
 */
const MERCHANT_HTML: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'h1', 'h2', 'span'],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], img: ['src', 'alt', 'title', 'width', 'height'], '*': [] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

export function sanitizeMerchantHtml(html: string): string {
  return sanitizeHtml(html, MERCHANT_HTML);
}

/** Merchant HTML cleaned now, as markup (a theme's `richtext` setting, which is stored as the merchant typed it). */
export const sanitizedMerchantHtml = (html: string): Markup => merchantHtml(sanitizeMerchantHtml(html));
