import Router from '@koa/router';
import { PlatformError } from '../errors.js';
import type { Markup } from '../html.js';
import type { Platform } from '../platform.js';
import { checkFormToken, readForm, refuseCrossOrigin } from './browser.js';
import type { AppContext, AppCustom, AppRouter, AppState } from './context.js';
import { pageForm } from './endpoint.js';
import { toPlatformError } from './errors.js';
import { readMultipart, type UploadedFile } from './multipart.js';
import { problemOf, setProblemHeaders, type Problem } from './page-errors.js';
import { seeOther, sendPage, setPageHeaders, type FramingPolicy } from './page.js';
import type { PathParams } from './path-params.js';
import { setFlash, takeFlash } from './ui/flash.js';

/**
 * The platform's server-rendered pages, declared as its API is (`routes()` in endpoint.ts): one
 * `pages()` list per face (the console, sign-in, the consent page, the shop), each page a path, a
 * method and a handler, under the list's access rule (who may see it) and CSRF rule (what every
 * form post must carry). docs/architecture.md, "Add a page", says how to add one.
 *
 * - Access first, for every path, even one that does not exist: a rule admits a viewer, sends the
 *   browser elsewhere (to sign in), or refuses with an error.
 * - A POST reads its own form (urlencoded, 16 KiB; `pageForm`) and is refused unless it comes from
 *   this site with the token the list's CSRF rule expects for this browser (src/http/browser.ts).
 * - Every answer carries the pages' headers (no-store, never framed; src/http/page.ts); every error
 *   is a page of the list's look with its status, message and the request id, never the API's
 *   JSON envelope; a GET of a form's address (or a POST to a page) is a 405 page with `Allow`;
 *   a list that owns its mount (`ownsMount`) answers any other path under it with a 404 page.
 */

export type Admission<V> = { viewer: V } | { redirect: string };
/** Who may see a list's pages: admits a viewer (what the handlers are given), redirects, or throws a refusal. */
export type PageAccess<V> = (platform: Platform, ctx: AppContext) => Promise<Admission<V>>;
/** The `csrf_token` a list's form posts must carry from this browser; null when it holds nothing of its own (then none may be sent). */
export type CsrfRule<V> = (platform: Platform, ctx: AppContext, viewer: V) => string | null;

export type PageList<V> = {
  /** The list's name in the log (`pages.unhandled_error`). */
  name: string;
  access: PageAccess<V>;
  csrf: CsrfRule<V>;
  /** An error as a whole page of the list's look. */
  errorPage: (problem: Problem, ctx: AppContext) => Markup;
  /** Every path under the list's mount is its own: one it does not declare is a 404 page (after the access check). */
  ownsMount?: boolean;
};

/** What a page's handler is given, and how it answers. */
export type Page<V, P = Record<string, string>> = {
  platform: Platform;
  ctx: AppContext;
  viewer: V;
  params: P;
  /** A POST's fields (each field's first value), its CSRF token checked; empty for a GET. */
  form: ReadonlyMap<string, string>;
  /** A file form's post (`PageSpec.upload`): its file, or null for any other request. */
  upload: Upload | null;
  /** Answer a whole page (200 unless told); a page that frames another document gives its policy (src/http/page.ts). */
  render(document: Markup, status?: number, policy?: FramingPolicy): void;
  /** POST-redirect-GET: 303 to a path of this site, with a flash message for the page it shows (src/http/ui/flash.ts). */
  seeOther(to: string, flash?: string): void;
  /** The flash message the last answer left this browser, read once. */
  takeFlash(): string | null;
};

type Handler<V, Path extends string> = (page: Page<V, PathParams<Path>>) => Promise<void> | void;
export type PageSpec<V> = {
  /** The token its form posts carry, when not the list's (sign-in's Log out: the session's, where its other forms are bound to the login cookie). */
  csrf?: CsrfRule<V>;
  /** The requests at this path that are the page's; the others go on to the API's route at the same path (GET / is a browser's page, an API client's 404). */
  answers?: (ctx: AppContext) => boolean;
  /**
   * A form with one file (`multipart/form-data`): the largest file it takes, in bytes. Its text
   * fields are `form` and pass the same checks; the file is `upload`.
   */
  upload?: (platform: Platform) => number;
};

/**
 * A file form's post: its `file` part (null when none was chosen), or why the body could not be
 * read (`refused`: too large, not multipart, cut off), for the page to say at its field. A refused
 * body was not read, its CSRF token neither: the page must change nothing then (`form` is empty).
 */
export type Upload = { file: UploadedFile | null } | { refused: PlatformError };

export type Pages<V> = {
  get<Path extends string>(path: Path, handler: Handler<V, Path>): void;
  get<Path extends string>(path: Path, spec: PageSpec<V>, handler: Handler<V, Path>): void;
  post<Path extends string>(path: Path, handler: Handler<V, Path>): void;
  post<Path extends string>(path: Path, spec: PageSpec<V>, handler: Handler<V, Path>): void;
  /** The router the module mounts (its pages, and the list's 404 page when it owns its mount). */
  readonly router: AppRouter;
};

type Method = 'GET' | 'POST';
type Entry<V> = { spec: PageSpec<V>; handler: Handler<V, string> };
const NO_FORM: ReadonlyMap<string, string> = new Map();

export function pages<V>(platform: Platform, list: PageList<V>): Pages<V> {
  const router: AppRouter = new Router<AppState, AppCustom>();
  const paths = new Map<string, Map<Method, Entry<V>>>();

  /** Answer one request: access, then the page (or the 404 or 405 it is), every error a page. */
  async function answer(ctx: AppContext, page: Entry<V> | PlatformError): Promise<void> {
    setPageHeaders(ctx);
    try {
      const admitted = await list.access(platform, ctx);
      if ('redirect' in admitted) return seeOther(ctx, admitted.redirect);
      if (page instanceof PlatformError) throw page;
      let form = NO_FORM;
      let upload: Upload | null = null;
      if (ctx.method === 'POST') {
        const csrf = () => (page.spec.csrf ?? list.csrf)(platform, ctx, admitted.viewer);
        if (page.spec.upload) {
          ({ form, upload } = await readUpload(ctx, page.spec.upload(platform)));
          if ('file' in upload) checkFormToken(ctx, csrf(), form.get('csrf_token'));
        } else {
          form = await readForm(ctx);
          checkFormToken(ctx, csrf(), form.get('csrf_token'));
        }
      }
      await page.handler({
        platform,
        ctx,
        viewer: admitted.viewer,
        params: (ctx as { params?: Record<string, string> }).params ?? {},
        form,
        upload,
        render: (document, status = 200, policy) => sendPage(ctx, status, document, policy),
        seeOther: (to, flash) => {
          if (flash) setFlash(platform, ctx, flash);
          seeOther(ctx, to);
        },
        takeFlash: () => takeFlash(platform, ctx),
      });
      if ((ctx.body === undefined || ctx.body === null) && !(ctx.status >= 300 && ctx.status < 400)) throw new Error(`a page of ${list.name} answered nothing`);
    } catch (raw) {
      if (!toPlatformError(raw))
        platform.log.error({ event: 'pages.unhandled_error', pages: list.name, request_id: ctx.state.requestId, err: raw }, 'unhandled error');
      setProblemHeaders(ctx, raw);
      const problem = problemOf(raw, ctx.state.requestId);
      sendPage(ctx, problem.status, list.errorPage(problem, ctx));
    }
  }

  /** One path's pages by method: each request's page, a 405 for a method it has no page for, or on to the API. */
  const dispatch = (methods: Map<Method, Entry<V>>) =>
    pageForm(async (ctx: AppContext, next: () => Promise<unknown>) => {
      const entry = methods.get(ctx.method === 'POST' ? 'POST' : 'GET');
      const shared = [...methods.values()].some((e) => e.spec.answers);
      if (entry ? entry.spec.answers && !entry.spec.answers(ctx) : shared) return next();
      if (entry) return answer(ctx, entry);
      const allow = [...methods.keys()].map((m) => (m === 'GET' ? 'GET, HEAD' : m)).join(', ');
      const message = methods.has('POST') ? 'This address takes a form: go back to the page and send it from there' : 'This page takes no form';
      return answer(ctx, new PlatformError('method_not_allowed', 'method_not_allowed', message, { headers: { Allow: allow } }));
    });

  const declare = (method: Method) => (path: string, specOrHandler: PageSpec<V> | Handler<V, string>, maybeHandler?: Handler<V, string>) => {
    const [spec, handler] = typeof specOrHandler === 'function' ? [{}, specOrHandler] : [specOrHandler, maybeHandler!];
    let methods = paths.get(path);
    if (!methods) {
      paths.set(path, (methods = new Map()));
      const middleware = dispatch(methods);
      router.get(path, middleware);
      router.post(path, middleware);
    }
    methods.set(method, { spec, handler });
  };

  let finished = false;
  return {
    get: declare('GET') as Pages<V>['get'],
    post: declare('POST') as Pages<V>['post'],
    get router() {
      if (!finished && list.ownsMount) {
        // Declared last, so a declared page is matched first.
        const missing = pageForm((ctx: AppContext) => answer(ctx, new PlatformError('not_found', 'route_not_found', 'There is no page at this address')));
        router.get('/{*rest}', missing);
        router.post('/{*rest}', missing);
      }
      finished = true;
      return router;
    },
  };
}

/** A file form's body: refused from another site before a byte is read, then read within the limit; a client's mistake in it is the page's to show. */
async function readUpload(ctx: AppContext, maxFileBytes: number): Promise<{ form: ReadonlyMap<string, string>; upload: Upload }> {
  refuseCrossOrigin(ctx);
  try {
    const read = await readMultipart(ctx, { maxFileBytes, maxFiles: 1, maxFields: 20 });
    const form = new Map<string, string>();
    for (const [name, value] of Object.entries(read.fields)) form.set(name, Array.isArray(value) ? (value[0] ?? '') : value);
    return { form, upload: { file: read.files.file?.[0] ?? null } };
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    return { form: NO_FORM, upload: { refused: err } };
  }
}

export type { Problem } from './page-errors.js';
