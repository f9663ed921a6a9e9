import type { z } from 'zod';
import { merchantEmail } from '../auth/index.js';
import { PlatformError } from '../errors.js';
import { operator, type SignedIn } from '../http/page-access.js';
import type { Page, PageAccess } from '../http/pages.js';
import { parseListQuery, trailOf } from '../http/ui/pager.js';
import type { Module } from '../module.js';

/**
 * One console request (docs/console.md): a page of the console's `pages()` list, whose viewer is
 * an operator signed in in a browser (with the email the top bar shows), and the module list (the
 * operations services read the modules' job contracts and figures).
 */
export type ConsoleViewer = SignedIn & { email: string };
export type ConsoleRequest = Page<ConsoleViewer, unknown> & { modules: readonly Module[] };

const asOperator = operator('/console');
/** Who may use the console: an operator signed in in a browser (src/http/page-access.ts), with the email the top bar shows. */
export const consoleAccess: PageAccess<ConsoleViewer> = async (platform, ctx) => {
  const admitted = await asOperator(platform, ctx);
  if ('redirect' in admitted) return admitted;
  return { viewer: { ...admitted.viewer, email: (await merchantEmail(platform, admitted.viewer.merchant.merchantId)) ?? 'operator' } };
};

/** The query parameters that are the pages' own, not the list's: the `done` notice and the pagers' trails. */
const ownParam = (name: string) => name === 'done' || name.endsWith('_trail');

/** A query string parsed by a schema (the API's own), empty values and the pages' own parameters left out; 400 otherwise. */
export const parseQuery = <T extends z.ZodType>(c: ConsoleRequest, schema: T): z.output<T> => parseListQuery(c.ctx, schema, ownParam);

/** A form's fields parsed by a schema; 400 with the issues otherwise. */
export function parseFields<T extends z.ZodType>(schema: T, given: unknown): z.output<T> {
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    throw new PlatformError('invalid_data', 'invalid_input', 'The form has invalid input', {
      details: parsed.error.issues.map((i) => `${i.path.join('.') || 'form'}: ${i.message}`),
    });
  }
  return parsed.data;
}

/** The pager's position in a list: the cursor the page was asked with (as sent) and the ones before it. */
export function pagePosition(c: ConsoleRequest, cursorParam = 'cursor') {
  const cursor = Object.hasOwn(c.ctx.query, cursorParam) ? c.ctx.query[cursorParam] : undefined;
  return { cursor: typeof cursor === 'string' ? cursor : null, trail: trailOf(c.ctx, cursorParam), cursorParam };
}
