import { CaptureTag, Context, Drop, IncludeTag, LayoutTag, Liquid, RenderTag, toPromise, type Emitter, type FS, type Template } from 'liquidjs';
import type { RenderableTheme } from '../themes/index.js';
import { escapeHtml, safeHref, scriptSafeJson } from './html.js';
import { interpolate, type Translate } from './locale.js';
import { formatMoney } from './money.js';

/**
 * The Liquid engine (liquidjs) for themes that ship Liquid sources (docs/rendering.md, Liquid).
 * One `Liquid` instance per compiled theme (cache.ts): its file system is the bundle's inline
 * assets, nothing on disk; output is HTML-escaped unless a value is marked safe.
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

export const LIQUID_LIMITS: LiquidLimits = { parseChars: 4 * 1024 * 1024, memory: 10_000_000, renderDepth: 10 };

/** What the filters need of the page being rendered, per render (the instance is shared by every page of the theme). */
export type LiquidPageEnv = { t: Translate; currency: string; assetUrl: (path: string) => string };

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

/** Output escaping: safe HTML as it is, anything else escaped (liquidjs `outputEscape`). */
const escapeOutput = (value: unknown): string => (value instanceof SafeHtml ? value.html : escapeHtml(stringOf(value)));

function env(filter: { context: Context }): LiquidPageEnv {
  return renderState(filter.context).env;
}

/** A theme's Liquid sources compiled once: the layout and each section by renderer key (or why it did not parse). */
export type CompiledLiquid = {
  liquid: Liquid;
  layout: Template[] | Error | null;
  sections: Map<string, Template[] | Error>;
};

/** `onParse` is told of every template parsed (sections and the layout now, snippets when first rendered). */
export function compileLiquid(theme: RenderableTheme, onParse: () => void, limits: LiquidLimits = LIQUID_LIMITS): CompiledLiquid {
  const files = new Map(theme.bundle.renderer.assets.filter((a) => a.path.endsWith('.liquid') && typeof a.content === 'string').map((a) => [a.path, a.content!]));
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
  registerFilters(liquid);

  const parse = (path: string): Template[] | Error | null => {
    const source = files.get(path);
    if (source === undefined) return null;
    try {
      onParse();
      return liquid.parse(source, path);
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  };
  const sections = new Map<string, Template[] | Error>();
  for (const def of Object.values(theme.bundle.sections)) {
    if (sections.has(def.renderer_key)) continue;
    sections.set(def.renderer_key, parse(`sections/${def.renderer_key}.liquid`) ?? new Error(`sections/${def.renderer_key}.liquid is not in the theme`));
  }
  return { liquid, layout: parse('layout/theme.liquid'), sections };
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
  liquid.registerFilter('img_url', imageUrl);
  liquid.registerFilter('image_url', imageUrl);
  liquid.registerFilter('stylesheet_tag', (url: unknown) => new SafeHtml(`<link rel="stylesheet" href="${escapeHtml(stringOf(url))}" media="all">`));
  liquid.registerFilter('script_tag', (url: unknown) => new SafeHtml(`<script src="${escapeHtml(stringOf(url))}" defer></script>`));
  liquid.registerFilter('handleize', (value: unknown) => handleize(stringOf(value)));
  liquid.registerFilter('handle', (value: unknown) => handleize(stringOf(value)));
  liquid.registerFilter('json', (value: unknown) => new SafeHtml(scriptSafeJson(plain(value))));
  liquid.registerFilter('escape', (value: unknown) => new SafeHtml(escapeHtml(stringOf(value))));
  liquid.registerFilter('escape_once', (value: unknown) => new SafeHtml(escapeHtml(stringOf(value).replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => UNESCAPES.get(e)!))));
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

/** Output past `maxChars` stops the render (a theme printing without end). */
class CappedEmitter implements Emitter {
  buffer = '';
  constructor(private readonly maxChars: number) {}
  write(html: unknown): void {
    this.buffer += stringOf(html);
    if (this.buffer.length > this.maxChars) throw new Error(`output limit exceeded (${this.maxChars} characters)`);
  }
}

/** One template (a section, the layout) rendered with the page's scope, within a time limit (ms) and an output limit. */
export async function renderLiquid(compiled: CompiledLiquid, templates: Template[], scope: Record<string, unknown>, page: LiquidPageEnv, limits: { timeMs: number; maxChars: number }): Promise<string> {
  const globals = {};
  renders.set(globals, { env: page, depth: 0, maxChars: limits.maxChars });
  const ctx = new Context(scope, compiled.liquid.options, { globals, ownPropertyOnly: true, renderLimit: limits.timeMs }, { liquid: compiled.liquid });
  const emitter = new CappedEmitter(limits.maxChars);
  await toPromise(compiled.liquid.renderer.renderTemplates(templates, ctx, emitter));
  return emitter.buffer;
}
