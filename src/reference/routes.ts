import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { notFound } from '../errors.js';
import type { AppRouter } from '../http/context.js';
import { routes } from '../http/endpoint.js';
import type { Platform } from '../platform.js';

/** The repository's docs/ folder, from src/reference (or dist/src/reference). */
const DOCS_DIR = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../../docs/' : '../../docs/', import.meta.url));

/**
 * The pages served: the `*.md` files of docs/ when the process started, read once. A name is
 * looked up in this set, never joined to a path, so no request reaches another file; a
 * deployment without docs/ serves none (404).
 */
function loadPages(): ReadonlyMap<string, string> {
  try {
    return new Map(
      readdirSync(DOCS_DIR)
        .filter((name) => /^[a-z0-9-]+\.md$/.test(name))
        .map((name) => [name, readFileSync(`${DOCS_DIR}${name}`, 'utf8')]),
    );
  } catch {
    return new Map();
  }
}

export function referenceRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  const pages = loadPages();
  on.get('/:page', { access: 'public', respond: 'raw' }, async ({ ctx, params }) => {
    const page = pages.get(params.page);
    if (page === undefined) throw notFound('Page');
    ctx.set('Content-Type', 'text/markdown; charset=utf-8');
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = page;
  });
  return on.router;
}
