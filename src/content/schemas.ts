import { z } from 'zod';
import { updateBody } from '../http/validate.js';
import { PageQuery } from '../pagination.js';

/** Longest `body_html` taken (characters, before sanitising), as the catalog's descriptions. */
export const MAX_BODY_HTML = 65_535;
/** Most links a menu holds. */
export const MAX_MENU_ITEMS = 50;
/** Longest menu link URL. */
export const MAX_URL = 2048;

const Text = (max: number) => z.string().trim().min(1).max(max);

/** As a product's handle: lowercase letters and digits separated by single hyphens, 1–255 characters. */
export const HANDLE_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const MAX_HANDLE = 255;
export const Handle = z.string().min(1).max(MAX_HANDLE).regex(HANDLE_PATTERN, 'must be lowercase letters and digits separated by single hyphens');

const BodyHtml = z.string().max(MAX_BODY_HTML);
const Instant = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time, e.g. 2026-03-01T00:00:00Z' }).transform((s) => new Date(s));

/** Nothing a browser would read as a space, a line break or a control character. */
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\u2028\u2029\\]/;

/**
 * Whether a menu link may be printed as an `href`: a path on the store (`/`, `/pages/about`, but
 * not `//host`, which leaves the store) or an absolute `http(s)://` URL with a host. No other
 * scheme (`javascript:`, `data:`, `mailto:`), no spaces, control characters or backslashes
 * (browsers read `/\host` as `//host`).
 */
export function menuUrlProblem(url: string): string | null {
  if (UNSAFE_CHARACTERS.test(url)) return 'must not contain spaces, control characters or backslashes (percent-encode them)';
  if (url.startsWith('/')) return url.startsWith('//') ? 'must be a path on the store ("/…") or an http(s) URL, not "//…"' : null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be a path on the store starting with "/" or an absolute http:// or https:// URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return 'must be a path on the store starting with "/" or an absolute http:// or https:// URL';
  if (!/^https?:\/\/[^/?#]/i.test(url) || parsed.hostname === '') return 'must name a host after "http(s)://"';
  return null;
}

const MenuUrl = z
  .string()
  .min(1)
  .max(MAX_URL)
  .superRefine((url, ctx) => {
    const problem = menuUrlProblem(url);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const MenuItemInput = z.strictObject({ title: Text(255), url: MenuUrl });

const PageFields = {
  title: Text(255),
  handle: Handle,
  body_html: BodyHtml,
  published: z.boolean(),
};

export const CreatePageBody = z.strictObject({
  title: PageFields.title,
  handle: PageFields.handle.optional(),
  body_html: PageFields.body_html.default(''),
  published: PageFields.published.default(true),
});
export type CreatePageBody = z.infer<typeof CreatePageBody>;

export const UpdatePageBody = updateBody(PageFields);
export type UpdatePageBody = z.infer<typeof UpdatePageBody>;

const ArticleFields = {
  title: Text(255),
  handle: Handle,
  body_html: BodyHtml,
  author: Text(255).nullable(),
  published: z.boolean(),
  published_at: Instant.nullable(),
};

export const CreateArticleBody = z.strictObject({
  title: ArticleFields.title,
  handle: ArticleFields.handle.optional(),
  body_html: ArticleFields.body_html.default(''),
  author: ArticleFields.author.default(null),
  published: ArticleFields.published.default(true),
  published_at: ArticleFields.published_at.optional(),
});
export type CreateArticleBody = z.infer<typeof CreateArticleBody>;

export const UpdateArticleBody = updateBody(ArticleFields);
export type UpdateArticleBody = z.infer<typeof UpdateArticleBody>;

/** GET /v1/pages and /v1/articles: a page, optionally only the published or the unpublished ones. */
export const ListContentQuery = PageQuery.extend({ published: z.enum(['true', 'false']).optional() }).strict();
export type ListContentQuery = z.infer<typeof ListContentQuery>;

export const ListMenusQuery = PageQuery.strict();
export type ListMenusQuery = z.infer<typeof ListMenusQuery>;

/** PUT /v1/menus/:handle: the whole menu. */
export const PutMenuBody = z.strictObject({
  title: Text(255),
  items: z.array(MenuItemInput).max(MAX_MENU_ITEMS, `must have at most ${MAX_MENU_ITEMS} items`),
});
export type PutMenuBody = z.infer<typeof PutMenuBody>;

export const MenuParams = z.strictObject({ handle: Handle });
