import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import { PlatformError } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import type { AppCustom, AppRouter, AppState } from '../context.js';

/**
 * The platform's own browser scripts (docs/pages.md, "Scripts"): TypeScript in src/browser/ (its
 * own tsconfig, with the DOM's types), compiled beside the server to dist/src/browser/ and served
 * from this site at `/assets/scripts/<name>.js?v=<hash>`. A page names the scripts it runs
 * (`LayoutOptions.scripts`); every page works without them, except what is script by nature (the
 * embedded app host). Served from this site and never inline, so a page that frames another
 * document can hold `script-src 'self'` (src/http/page.ts).
 */
export const SCRIPTS = ['console-refresh', 'theme-editor', 'app-bridge-host', 'checkout-address'] as const;
export type ScriptName = (typeof SCRIPTS)[number];

export const SCRIPTS_PATH = '/assets/scripts';
/** A script's address carries its content's hash, so it is cached for a year and a new build is a new address. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

type Script = { body: Buffer; version: string };

let loaded: ReadonlyMap<string, Script> | null = null;

/** Every script, read once (a build missing one is a broken build: it fails at the first page, loudly). */
function scripts(): ReadonlyMap<string, Script> {
  loaded ??= new Map(
    SCRIPTS.map((name) => {
      const body = readFileSync(new URL(`../../browser/${name}.js`, import.meta.url));
      return [name, { body, version: createHash('sha256').update(body).digest('base64url').slice(0, 12) }];
    }),
  );
  return loaded;
}

/** The `<script>` element of one of the platform's scripts (a module: deferred, strict). */
export function scriptTag(name: ScriptName): Markup {
  const script = scripts().get(name)!;
  return html`<script type="module" src="${SCRIPTS_PATH}/${name}.js?v=${script.version}"></script>`;
}

/** GET /assets/scripts/<name>.js: the script; cached for good when asked by its current version. */
export function scriptRoutes(): AppRouter {
  const router = new Router<AppState, AppCustom>();
  router.get('/:file', (ctx) => {
    const file = ctx.params.file ?? '';
    const script = file.endsWith('.js') ? scripts().get(file.slice(0, -3)) : undefined;
    if (!script) throw new PlatformError('not_found', 'route_not_found', 'There is no script at this address');
    ctx.set('Cache-Control', ctx.query.v === script.version ? IMMUTABLE : 'no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = script.body;
  });
  return router;
}
