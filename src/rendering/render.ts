import { randomBytes } from 'node:crypto';
import type { Platform } from '../platform.js';
import type { StoreView } from '../stores/index.js';
import type { RenderableTheme } from '../themes/index.js';
import { renderAppBlock } from './app-blocks.js';
import { LruCache } from './cache.js';
import { escapeHtml } from './html.js';
import { renderJsonContractLayout, renderJsonContractSection, type JsonContractEnv } from './json-contract.js';
import { compileLiquid, renderLiquid, SafeHtml, type CompiledLiquid, type LiquidPageEnv } from './liquid.js';
import { pageObjects, sectionObject } from './liquid-objects.js';
import { translator, type Translate } from './locale.js';
import { buildPageModel, pageLocale, type PageModel, type PageRequest } from './page.js';
import { templateSections, themeSettings, type RenderedSection } from './sections.js';
import { PlatformError } from '../errors.js';

/** Limits of one page render (docs/rendering.md, Limits). */
export type PageLimits = {
  /** Wall time for all of a page's Liquid (sections and layout); a section started after it is skipped. */
  pageBudgetMs: number;
  /** Time for one Liquid section (liquidjs `renderLimit`, checked between template nodes). */
  sectionTimeMs: number;
  /** The page's HTML, in characters; a section that would pass it fails. */
  maxPageChars: number;
};
export const PAGE_LIMITS: PageLimits = { pageBudgetMs: 1000, sectionTimeMs: 250, maxPageChars: 2 * 1024 * 1024 };
/** The layout's time even when the sections spent the page's budget, so the page keeps its frame. */
const LAYOUT_MIN_MS = 100;

/** Compiled themes kept per web process (LRU by entries). */
export const COMPILED_THEMES = 200;

/** A theme's compiled form, cached by its `cacheKey` (a new publish or draft is a new key). */
type CompiledTheme = { liquid: CompiledLiquid | null };

export type RenderedPage = { html: string; status: number };

/** The renderer of one web process: its compiled-theme cache and limits. */
export type PageRenderer = {
  render(platform: Platform, store: StoreView, theme: RenderableTheme, request: PageRequest): Promise<RenderedPage>;
  /** The page's data (the storefront reads of its products, collections and cart): the first half of `render`. */
  prepare(platform: Platform, store: StoreView, theme: RenderableTheme, request: PageRequest): Promise<PreparedPage>;
  /** The second half: the prepared page into HTML, no reads (bench:render times it alone). */
  renderPrepared(platform: Platform, store: StoreView, theme: RenderableTheme, request: PageRequest, prepared: PreparedPage): Promise<RenderedPage>;
  /** Cache counters: compiled-theme hits and misses, entries, and templates parsed (tests, benchmarks). */
  stats(): { hits: number; misses: number; entries: number; parses: number };
};

export function createPageRenderer(options: { cacheEntries?: number; limits?: PageLimits } = {}): PageRenderer {
  const cache = new LruCache<CompiledTheme>(options.cacheEntries ?? COMPILED_THEMES);
  const limits = options.limits ?? PAGE_LIMITS;
  let parses = 0;
  const compile = (theme: RenderableTheme): CompiledTheme => ({ liquid: theme.bundle.renderer.engine === 'liquid' ? compileLiquid(theme, () => parses++) : null });
  return {
    render: async (platform, store, theme, request) => {
      const compiled = cache.getOrCreate(theme.cacheKey, () => compile(theme));
      return renderPrepared(platform, store, theme, request, await preparePage(platform, store, theme, request), compiled, limits);
    },
    prepare: preparePage,
    renderPrepared: async (platform, store, theme, request, prepared) => {
      const compiled = cache.getOrCreate(theme.cacheKey, () => compile(theme));
      return renderPrepared(platform, store, theme, request, prepared, compiled, limits);
    },
    stats: () => ({ hits: cache.hits, misses: cache.misses, entries: cache.size, parses }),
  };
}

/** Each platform's renderer (one per process; tests open several platforms). */
const renderers = new WeakMap<Platform, PageRenderer>();

export function pageRendererOf(platform: Platform): PageRenderer {
  let renderer = renderers.get(platform);
  if (!renderer) {
    renderer = createPageRenderer();
    renderers.set(platform, renderer);
  }
  return renderer;
}

/**
 * Render one page of a store's theme (the live one, or a preview's): its template's sections in
 * order into HTML, in the theme's engine. A product or collection page whose handle names
 * nothing, or a template the theme lacks, is a `not_found` PlatformError; a section that fails
 * renders as an HTML comment with an error id (logged) and the rest of the page renders.
 */
export function renderPage(platform: Platform, store: StoreView, theme: RenderableTheme, request: PageRequest): Promise<RenderedPage> {
  return pageRendererOf(platform).render(platform, store, theme, request);
}

/** A page's sections (resolved settings) and its data, read from the storefront. */
export type PreparedPage = { locale: string; t: Translate; sections: RenderedSection[]; page: PageModel };

async function preparePage(platform: Platform, store: StoreView, theme: RenderableTheme, request: PageRequest): Promise<PreparedPage> {
  const locale = pageLocale(theme, request.locale, store.locale);
  const t = translator(theme.bundle.locales, locale);
  const sections = templateSections(theme, request.template, t);
  if (!sections) throw new PlatformError('not_found', 'template_not_found', `This theme has no ${request.template} template`);
  return { locale, t, sections, page: await buildPageModel(platform, store, sections, locale, request) };
}

async function renderPrepared(platform: Platform, store: StoreView, theme: RenderableTheme, request: PageRequest, prepared: PreparedPage, compiled: CompiledTheme, limits: PageLimits): Promise<RenderedPage> {
  const { locale, t, sections, page } = prepared;
  const settings = themeSettings(theme, t);
  const assetUrl = (path: string) => `/v1/storefront/${encodeURIComponent(store.subdomain)}/assets/${theme.versionId}/${path.split('/').map(encodeURIComponent).join('/')}`;
  const failure = (section: string, err: unknown) => {
    const errorId = randomBytes(6).toString('hex');
    platform.log.warn({ event: 'render.section_failed', error_id: errorId, store_id: store.id, theme: theme.slug, version_id: theme.versionId, template: request.template, section, err: err instanceof Error ? err.message : String(err) });
    return `<!-- section "${escapeComment(section)}" failed to render (error ${errorId}) -->`;
  };

  if (!compiled.liquid) {
    const env: JsonContractEnv = { bundle: theme.bundle, page, t, assetUrl };
    const parts: string[] = [];
    let size = 0;
    for (const section of sections) {
      let html: string;
      try {
        html = renderJsonContractSection(section, env);
      } catch (err) {
        html = failure(section.id, err);
      }
      if (size + html.length > limits.maxPageChars) html = failure(section.id, new Error('page output limit exceeded'));
      size += html.length;
      parts.push(html);
    }
    return { html: renderJsonContractLayout(env, settings, parts.join('\n')), status: 200 };
  }

  const liquid = compiled.liquid;
  const pageEnv: LiquidPageEnv = { t, currency: store.currency, assetUrl };
  const objects = pageObjects(theme.bundle, page, settings);
  const deadline = performance.now() + limits.pageBudgetMs;
  const parts: string[] = [];
  let size = 0;
  for (const section of sections) {
    const remaining = deadline - performance.now();
    let html: string;
    try {
      if (remaining <= 0) throw new Error('page time budget exhausted');
      const templates = liquid.sections.get(section.rendererKey);
      if (!templates) throw new Error(`no Liquid template for renderer key ${section.rendererKey}`);
      if (templates instanceof Error) throw templates;
      const own = await renderLiquid(liquid, templates, { ...objects, section: sectionObject(theme.bundle, section) }, pageEnv, {
        timeMs: Math.min(limits.sectionTimeMs, remaining),
        maxChars: limits.maxPageChars - size,
      });
      html = wrapSection(section, own);
    } catch (err) {
      html = failure(section.id, err);
    }
    if (size + html.length > limits.maxPageChars) html = failure(section.id, new Error('page output limit exceeded'));
    size += html.length;
    parts.push(html);
  }
  const content = parts.join('\n');
  if (liquid.layout === null) return { html: content, status: 200 };
  try {
    if (liquid.layout instanceof Error) throw liquid.layout;
    const timeMs = Math.max(LAYOUT_MIN_MS, deadline - performance.now());
    const html = await renderLiquid(liquid, liquid.layout, { ...objects, content_for_layout: new SafeHtml(content) }, pageEnv, { timeMs, maxChars: limits.maxPageChars * 2 });
    return { html, status: 200 };
  } catch (err) {
    // The sections still reach the shopper, in a bare page.
    return { html: `<!doctype html><html lang="${escapeHtml(locale)}"><head><meta charset="utf-8"><title>${escapeHtml(store.name)}</title></head><body>${failure('layout', err)}\n${content}</body></html>`, status: 200 };
  }
}

/** A Liquid section in Shopify's wrapper, followed by its app blocks (the platform renders those, whatever the theme's code). */
function wrapSection(section: RenderedSection, own: string): string {
  const apps = section.blocks.filter((b) => b.app).map(renderAppBlock).join('');
  return `<div id="shopify-section-${escapeHtml(section.id)}" class="shopify-section" data-section-type="${escapeHtml(section.type)}">${own}${apps}</div>`;
}

const escapeComment = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '');
