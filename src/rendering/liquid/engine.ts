import {
  CaptureTag,
  Context,
  Drop,
  IncludeTag,
  LayoutTag,
  Liquid,
  RenderTag,
  toValueSync,
  type Emitter,
  type FilterImplOptions,
  type FS,
  type Template,
} from 'liquidjs';
import { checkLiquidBounds, LIQUID_BOUNDS } from '../../liquid-bounds.js';
import { escapeHtml, safeHref, scriptSafeJson } from '../../html.js';
import { HtmlContext } from './html-context.js';
import type { LiquidTheme } from './theme.js';
import { interpolate, type Translate } from '../locale.js';
import { formatMoney } from '../money.js';
import { defaultPagination, paginateTag, type PaginateObject } from './paginate.js';

/**
 * The Liquid engine (liquidjs) for themes that ship Liquid sources (docs/rendering.md, Liquid).
 * It runs in the render threads (render-thread.ts), never on the web process's event loop. One
 * `Liquid` instance per compiled theme version: its file system is the theme's `.liquid` files,
 * nothing on disk; output is HTML-escaped unless a value is marked safe.
 */

/** HTML that is already safe to emit as it is (escaped, sanitised or built by us); every other output value is escaped. */
export class SafeHtml extends Drop {
  constructor(readonly html: string) {
    super();
  }
  override valueOf(): string {
    return this.html;
  }
  override toString(): string {
    return this.html;
  }
}

export type LiquidLimits = {
  /** Characters parsed by one theme's instance, all its templates together (liquidjs `parseLimit`). */
  parseChars: number;
  /** Allocation units of one section's render (liquidjs `memoryLimit`: ranges, joins, string building). */
  memory: number;
  /** `{% render %}` / `{% include %}` nesting. */
  renderDepth: number;
};

export const LIQUID_LIMITS: LiquidLimits = { parseChars: LIQUID_BOUNDS.themeChars, memory: 10_000_000, renderDepth: 10 };

/**
 * What one filter call may be given or make: an array of at most this many items, a string of at
 * most this many characters (a theme file's size). A filter's work is then bounded by its input,
 * whatever a theme built before it (20 `append` doublings and a `split` make a million items).
 */
export const FILTER_LIMITS = { items: 10_000, chars: 256 * 1024 } as const;

/** What the filters need of the page being rendered, per render (the instance is shared by every page of the theme). */
export type LiquidPageEnv = { t: Translate; currency: string; assetUrl: (path: string) => string; paginate?: PaginateObject | null };

/**
 * Per render: the page's environment, the render's `{% render %}` depth and its output limit.
 * Keyed by the render's globals object, which liquidjs hands to every spawned context.
 */
const renders = new WeakMap<object, { env: LiquidPageEnv; depth: number; maxChars: number }>();

function renderState(ctx: Context) {
  const state = renders.get(ctx.globals);
  if (!state) throw new Error('render outside a page render');
  return state;
}

/** Around a `{% render %}`, `{% include %}` or `{% layout %}`: one level deeper, refused past the limit. */
function* nested(ctx: Context, maxDepth: number, body: () => Generator<unknown, unknown, unknown>): Generator<unknown, void, unknown> {
  const state = renderState(ctx);
  if (state.depth >= maxDepth) throw new Error(`render depth limit exceeded (${maxDepth} nested renders)`);
  state.depth++;
  try {
    yield* body();
  } finally {
    state.depth--;
  }
}

/** The `render`, `include` and `layout` tags with their nesting bounded, and `capture` with its output bounded. */
function boundedTags(maxDepth: number) {
  class BoundedRender extends RenderTag {
    override *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
      yield* nested(ctx, maxDepth, () => super.render(ctx, emitter));
    }
  }
  class BoundedInclude extends IncludeTag {
    override *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
      yield* nested(ctx, maxDepth, () => super.render(ctx, emitter));
    }
  }
  class BoundedLayout extends LayoutTag {
    override *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
      yield* nested(ctx, maxDepth, () => super.render(ctx, emitter));
    }
  }
  // A capture renders into a buffer of its own, which neither the output limit nor liquidjs's memory limit sees: bound it too.
  class BoundedCapture extends CaptureTag {
    override *render(ctx: Context): Generator<unknown, void, string> {
      const html = yield this.liquid.renderer.renderTemplates(this.templates, ctx, new CappedEmitter(renderState(ctx).maxChars)) as unknown as string;
      // The variable's name is the template's: an own property even when it is __proto__.
      Object.defineProperty(ctx.bottom(), this.variable, { value: html, writable: true, enumerable: true, configurable: true });
    }
  }
  return { BoundedRender, BoundedInclude, BoundedLayout, BoundedCapture };
}
const SNIPPET_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

/**
 * The bundle's Liquid assets as liquidjs's file system: a name resolves to `snippets/<name>.liquid`
 * (partials) or `layout/<name>.liquid` only when it is a plain name; `../`, `/etc/passwd`, a
 * folder or anything else resolves to nothing, so a lookup fails and nothing else is read.
 */
export function bundleFileSystem(files: ReadonlyMap<string, string>, onRead: () => void): FS {
  const resolve = (dir: string, file: string, ext: string) => {
    const name = file.endsWith(ext) ? file.slice(0, -ext.length) : file;
    return (dir === 'snippets' || dir === 'layout') && SNIPPET_NAME.test(name) ? `${dir}/${name}${ext}` : '\0refused';
  };
  const read = (path: string) => {
    const content = files.get(path);
    if (content === undefined) throw new Error(`ENOENT: ${path} is not in the theme`);
    onRead();
    return content;
  };
  return {
    resolve,
    exists: async (path) => files.has(path),
    existsSync: (path) => files.has(path),
    readFile: async (path) => read(path),
    readFileSync: read,
    contains: async (root, path) => path.startsWith(`${root}/`),
    containsSync: (root, path) => path.startsWith(`${root}/`),
    sep: '/',
    dirname: (path) => path.slice(0, Math.max(0, path.lastIndexOf('/'))),
  };
}

const stringOf = (value: unknown): string => {
  const v = value instanceof Drop ? value.valueOf() : value;
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(stringOf).join('');
  return String(v);
};

/**
 * The `json` filter's output: JSON with `<`, `>`, `&`, `'` and line separators as `\\u` escapes,
 * safe as it is in text and in a `<script>`. Where it lands in a tag (a quoted attribute value,
 * an unquoted one) the emitter also HTML-escapes it (`"` → `&quot;`), so it cannot end the value.
 * Not a Drop: liquidjs hands it to the emitter as it is. Used as text by any other filter.
 */
export class JsonText {
  constructor(readonly json: string) {}
  toString(): string {
    return this.json;
  }
}

/** Output escaping: safe HTML and JSON as they are (JSON is placed by the emitter), anything else escaped (liquidjs `outputEscape`). */
const escapeOutput = (value: unknown): string =>
  value instanceof SafeHtml ? value.html : value instanceof JsonText ? (value as never) : escapeHtml(stringOf(value));

/** JSON for where it lands: as it is in text and raw text, HTML-escaped in a tag (and its spaces, `=` and backticks too where a value is unquoted). */
function placeJson(json: string, context: HtmlContext): string {
  const place = context.place;
  if (place === 'text' || place === 'rawtext') return json;
  const escaped = escapeHtml(json);
  return place === 'tag' ? escaped.replace(/[\s=`]/g, (c) => `&#${c.charCodeAt(0)};`) : escaped;
}

function env(filter: { context: Context }): LiquidPageEnv {
  return renderState(filter.context).env;
}

/**
 * A theme version's Liquid engine: the layout parsed at once, each section's file when a page first
 * needs it (`sectionTemplates`), snippets when first rendered (liquidjs's own cache); all kept.
 */
export type CompiledLiquid = {
  liquid: Liquid;
  layout: Template[] | Error | null;
  /** Sections parsed so far (or why one did not parse), by renderer key. */
  sections: Map<string, Template[] | Error>;
  /** Parse a file of the theme (null when it has none; an Error for one past the bounds or broken). */
  parse(path: string): Template[] | Error | null;
  /** The characters of its sources (what a thread's cache counts). */
  chars: number;
  /** What it was compiled from (the page objects read its schemas and locales). */
  theme: LiquidTheme;
};

/**
 * `onParse` is told of every template parsed (the layout now, sections and snippets when first
 * needed). A file past the bounds (liquid-bounds.ts; only versions stored before them can have
 * one) is not parsed: its section fails with the reason, and a snippet in it is missing.
 */
export function compileLiquid(theme: LiquidTheme, onParse: () => void, limits: LiquidLimits = LIQUID_LIMITS): CompiledLiquid {
  const bounds = checkLiquidBounds(theme.files.map(([path, content]) => ({ path, content })));
  const refused = (path: string) => {
    const problem = bounds.theme ?? bounds.files.get(path);
    return problem ? new Error(`${path} is not rendered: ${bounds.theme ? problem : `it ${problem}`}`) : null;
  };
  const files = new Map(theme.files.filter(([path]) => !refused(path)));
  const liquid = new Liquid({
    fs: bundleFileSystem(files, onParse),
    root: ['snippets'],
    partials: ['snippets'],
    layouts: ['layout'],
    extname: '.liquid',
    relativeReference: false,
    dynamicPartials: true,
    cache: true,
    strictFilters: false,
    strictVariables: false,
    ownPropertyOnly: true,
    jsTruthy: false,
    outputEscape: escapeOutput,
    parseLimit: limits.parseChars,
    memoryLimit: limits.memory,
    timezoneOffset: 0,
  });
  const { BoundedRender, BoundedInclude, BoundedLayout, BoundedCapture } = boundedTags(limits.renderDepth);
  liquid.registerTag('layout', BoundedLayout);
  liquid.registerTag('render', BoundedRender);
  liquid.registerTag('include', BoundedInclude);
  liquid.registerTag('capture', BoundedCapture);
  liquid.registerTag(
    'paginate',
    paginateTag((ctx) => renderState(ctx).env.paginate ?? null),
  );
  registerFilters(liquid);
  capFilters(liquid);

  const parse = (path: string): Template[] | Error | null => {
    const why = refused(path);
    if (why) return why;
    const source = files.get(path);
    if (source === undefined) return null;
    try {
      onParse();
      return liquid.parse(source, path);
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  };
  const chars = theme.files.reduce((n, [, source]) => n + source.length, 0);
  return { liquid, layout: parse('layout/theme.liquid'), sections: new Map(), parse, chars, theme };
}

/** A section's templates, parsed on first use and kept; `parsing` is told before a parse (the caller times it). */
export function sectionTemplates(compiled: CompiledLiquid, rendererKey: string, parsing: () => void): Template[] | Error {
  let found = compiled.sections.get(rendererKey);
  if (found === undefined) {
    parsing();
    const path = `sections/${rendererKey}.liquid`;
    found = compiled.parse(path) ?? new Error(`${path} is not in the theme`);
    compiled.sections.set(rendererKey, found);
  }
  return found;
}

const isGenerator = (v: unknown): v is Generator =>
  typeof v === 'object' && v !== null && typeof (v as Generator).next === 'function' && typeof (v as Generator).throw === 'function';

/** Every filter (liquidjs's and ours) refuses input and output past FILTER_LIMITS. */
function capFilters(liquid: Liquid): void {
  const check = (name: string, value: unknown, what: string) => {
    if (Array.isArray(value) && value.length > FILTER_LIMITS.items)
      throw new Error(`the ${name} filter ${what} ${value.length} items (at most ${FILTER_LIMITS.items})`);
    if (typeof value === 'string' && value.length > FILTER_LIMITS.chars)
      throw new Error(`the ${name} filter ${what} ${value.length} characters (at most ${FILTER_LIMITS.chars})`);
  };
  for (const [name, impl] of Object.entries(liquid.filters) as [string, FilterImplOptions][]) {
    const handler = typeof impl === 'function' ? impl : impl.handler;
    const capped = function (this: unknown, value: unknown, ...args: unknown[]): unknown {
      check(name, value, 'was given');
      for (const arg of args) check(name, arg, 'was given');
      const made: unknown = handler.call(this as never, value, ...args);
      // Some of liquidjs's filters are generators: what one makes is known once the renderer has run it.
      if (!isGenerator(made)) {
        check(name, made, 'made');
        return made;
      }
      return (function* () {
        const value: unknown = yield made;
        check(name, value, 'made');
        return value;
      })();
    };
    liquid.registerFilter(name, typeof impl === 'function' ? capped : { ...impl, handler: capped });
  }
}

function registerFilters(liquid: Liquid): void {
  liquid.registerFilter('money', function (this: { context: Context }, value: unknown) {
    return formatMoney(value, env(this).currency);
  });
  liquid.registerFilter('money_with_currency', function (this: { context: Context }, value: unknown) {
    return formatMoney(value, env(this).currency, true);
  });
  liquid.registerFilter('money_without_currency', function (this: { context: Context }, value: unknown) {
    const n = Number(value);
    return Number.isFinite(n) ? (n / 100).toFixed(2) : '';
  });
  // Shopify's `t`: a key ending in `_html` is the theme's own HTML; other translations are text. Placeholders are escaped.
  liquid.registerFilter('t', function (this: { context: Context }, key: unknown, ...args: unknown[]) {
    const name = stringOf(key);
    const vars = Object.fromEntries(args.filter((a): a is [string, unknown] => Array.isArray(a) && a.length === 2 && typeof a[0] === 'string'));
    const text = env(this).t(name);
    if (text === null) return name;
    const html = name.endsWith('_html') || name.endsWith('.html');
    return html ? new SafeHtml(interpolate(text, vars, (v) => escapeHtml(stringOf(v)))) : interpolate(text, vars, stringOf);
  });
  liquid.registerFilter('asset_url', function (this: { context: Context }, name: unknown) {
    const file = stringOf(name).replace(/^\/+/, '');
    return env(this).assetUrl(file.startsWith('assets/') ? file : `assets/${file}`);
  });
  const imageUrl = function (this: { context: Context }, image: unknown) {
    const src = typeof image === 'object' && image !== null && 'src' in image ? (image as { src: unknown }).src : image;
    const path = stringOf(src);
    return path.startsWith('assets/') ? env(this).assetUrl(path) : (safeHref(path) ?? '');
  };
  liquid.registerFilter('default_pagination', (value: unknown) => new SafeHtml(defaultPagination(value)));
  liquid.registerFilter('img_url', imageUrl);
  liquid.registerFilter('image_url', imageUrl);
  liquid.registerFilter('stylesheet_tag', (url: unknown) => new SafeHtml(`<link rel="stylesheet" href="${escapeHtml(stringOf(url))}" media="all">`));
  liquid.registerFilter('script_tag', (url: unknown) => new SafeHtml(`<script src="${escapeHtml(stringOf(url))}" defer></script>`));
  liquid.registerFilter('handleize', (value: unknown) => handleize(stringOf(value)));
  liquid.registerFilter('handle', (value: unknown) => handleize(stringOf(value)));
  liquid.registerFilter('json', (value: unknown) => new JsonText(scriptSafeJson(plain(value))));
  liquid.registerFilter('escape', (value: unknown) => new SafeHtml(escapeHtml(stringOf(value))));
  liquid.registerFilter(
    'escape_once',
    (value: unknown) => new SafeHtml(escapeHtml(stringOf(value).replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => UNESCAPES.get(e)!))),
  );
}

/** What `escape_once` turns back before escaping again. */
const UNESCAPES = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['#39', "'"],
]);

const handleize = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** A value for `json`: safe HTML as its text, drops as their value. */
function plain(value: unknown, depth = 0): unknown {
  if (depth > 20) return null;
  if (value instanceof Drop) return stringOf(value);
  if (Array.isArray(value)) return value.map((v) => plain(v, depth + 1));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v, depth + 1)]));
  return value;
}

/** Output past `maxChars` stops the render (a theme printing without end); JSON is placed where it lands in the HTML. */
class CappedEmitter implements Emitter {
  buffer = '';
  private readonly context = new HtmlContext();
  constructor(private readonly maxChars: number) {}
  write(html: unknown): void {
    const text = html instanceof JsonText ? placeJson(html.json, this.context) : stringOf(html);
    this.context.write(text);
    this.buffer += text;
    if (this.buffer.length > this.maxChars) throw new Error(`output limit exceeded (${this.maxChars} characters)`);
  }
}

/**
 * One template (a section, the layout) rendered with the page's scope, within a time limit (ms)
 * and an output limit. Synchronously: a render thread has nothing else to do, the theme's files
 * are in memory, and liquidjs's asynchronous runner awaits every nested generator (a microtask
 * per tag and per generator filter).
 */
export function renderLiquid(
  compiled: CompiledLiquid,
  templates: Template[],
  scope: Record<string, unknown>,
  page: LiquidPageEnv,
  limits: { timeMs: number; maxChars: number },
): string {
  const globals = {};
  renders.set(globals, { env: page, depth: 0, maxChars: limits.maxChars });
  const ctx = new Context(
    scope,
    compiled.liquid.options,
    { globals, ownPropertyOnly: true, renderLimit: limits.timeMs, sync: true },
    { liquid: compiled.liquid },
  );
  const emitter = new CappedEmitter(limits.maxChars);
  toValueSync(compiled.liquid.renderer.renderTemplates(templates, ctx, emitter));
  return emitter.buffer;
}
