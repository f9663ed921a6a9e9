import { renderAppBlock } from '../app-blocks.js';
import { LruCache } from './cache.js';
import { escapeHtml } from '../../html.js';
import { barePage, failureComment, newErrorId, type SectionFailure } from './failures.js';
import { compileLiquid, renderLiquid, SafeHtml, sectionTemplates, type CompiledLiquid, type LiquidPageEnv } from './engine.js';
import type { LiquidTheme } from './theme.js';
import { pageObjects, sectionObject } from './objects.js';
import { paginateObject } from './paginate.js';
import { translator } from '../locale.js';
import { notFoundContent } from '../theme-look.js';
import type { PageModel } from '../page.js';
import type { RenderedSection } from '../sections.js';

/**
 * A Liquid page as a render thread makes it (render-thread.ts): the theme version compiled once
 * and kept, then the page's sections in order, each reported as soon as it is done, then the
 * layout. The web process (render.ts) sends the page's data, already read and resolved, and
 * watches the time of each step; this side keeps the cooperative limits (liquidjs's
 * `renderLimit` between template nodes, the output and memory limits).
 */

/** What the web process sends for one page (or the rest of one, after a thread was stopped). */
export type LiquidPageTask = {
  /** The theme version's key (its id): what the thread's compiled cache is keyed by. */
  key: string;
  sections: RenderedSection[];
  /** The first section still to render (0, or after a stopped thread the one after the section it was stopped in). */
  from: number;
  /** The HTML of the sections before `from`, for the layout. */
  done: string[];
  page: PageModel;
  /** The theme settings, resolved. */
  settings: Record<string, unknown>;
  locale: string;
  storeName: string;
  currency: string;
  /** `asset_url`'s prefix: `/v1/storefront/<subdomain>/assets/<version id>/`. */
  assetBase: string;
  /**
   * When the page's time for sections ends (ms since the epoch, `performance.timeOrigin` based,
   * the same clock in every thread), or null on a page's first task: then it is `budgetMs` after
   * the thread has compiled the theme, and the thread reports it (`compiled`).
   */
  deadline: number | null;
  budgetMs: number;
  /**
   * How much the page's deadline may still move for warming a thread up: parsing section files it
   * lacks, and, after a stopped thread, the replacement's start (since `resumedAt`) and compile.
   */
  warmupBudgetMs: number;
  /** When the thread before this one was stopped (epoch ms), on a page's later tasks. */
  resumedAt: number | null;
  /** Renderer keys not to run: their thread was stopped lately (they fail at once, with this reason). */
  skip: [string, string][];
  sectionTimeMs: number;
  layoutMinMs: number;
  maxPageChars: number;
};

/**
 * What the thread answers, in order: `compiled` (after `need-theme` when it lacks the version),
 * then for each section from `from` a `section` (after `parsing` and `parsed` when its file was
 * not parsed yet), then `layout`. `parses`: templates parsed since the previous message;
 * `deadline`: the page's deadline, moved by the time spent warming up (at most `warmupBudgetMs`).
 */
export type LiquidPageMessage =
  | { type: 'need-theme' }
  | { type: 'compiled'; fresh: boolean; parses: number; deadline: number }
  | { type: 'parsing'; index: number }
  | { type: 'parsed'; index: number; parses: number; deadline: number }
  | { type: 'section'; index: number; html: string; failure: SectionFailure | null; parses: number }
  | { type: 'layout'; html: string | null; failure: SectionFailure | null; parses: number };

/** Compiled theme versions kept by one thread: by entries and by the characters of their sources. */
export type CompiledCache = { get(key: string): CompiledLiquid | undefined; put(key: string, compiled: CompiledLiquid): void };

export function compiledCache(maxEntries: number, maxChars: number): CompiledCache {
  const lru = new LruCache<CompiledLiquid>(maxEntries);
  let chars = 0;
  return {
    get: (key) => lru.get(key),
    put(key, compiled) {
      lru.set(key, compiled, (evicted) => (chars -= evicted.chars));
      chars += compiled.chars;
      // A version larger than the whole budget is still kept alone: the page being rendered needs it.
      while (chars > maxChars && lru.size > 1) lru.evictOldest((evicted) => (chars -= evicted.chars));
    },
  };
}

/** Compile a theme version into the cache (its engine and layout); `onParse` is told of every template it parses, then and later. */
export function compileInto(cache: CompiledCache, key: string, theme: LiquidTheme, onParse: () => void): void {
  cache.put(key, compileLiquid(theme, onParse));
}

/**
 * Render `task` with the compiled version, reporting each section, then the layout, through
 * `post`. Time is taken from the thread's own clock against the page's deadline (shared with the
 * web process, which stops the thread if a step outlasts its time by more than a grace).
 * `parsed()` answers how many templates were parsed since it was last asked.
 */
export function renderLiquidPage(
  compiled: CompiledLiquid,
  task: LiquidPageTask,
  page: { deadline: number; warmup: number },
  parsed: () => number,
  post: (message: LiquidPageMessage) => void,
): void {
  const theme = compiled.theme;
  const t = translator(theme.locales, task.locale);
  const assetUrl = (path: string) => `${task.assetBase}${path.split('/').map(encodeURIComponent).join('/')}`;
  const env: LiquidPageEnv = { t, currency: task.currency, assetUrl, paginate: task.page.listing ? paginateObject(task.page.listing, t) : null };
  const objects = pageObjects(theme, task.page, task.settings);
  // The page's deadline, on the epoch clock every thread shares; parsing moves it (within the warm-up budget).
  let { deadline, warmup } = page;
  const skip = new Map(task.skip);
  const now = () => performance.timeOrigin + performance.now();
  const parts = [...task.done];
  let size = parts.reduce((n, p) => n + p.length, 0);
  const failed = (section: string, err: unknown) => {
    const failure = { errorId: newErrorId(), message: err instanceof Error ? err.message : String(err) };
    return { html: failureComment(section, failure.errorId), failure };
  };

  for (let index = task.from; index < task.sections.length; index++) {
    const section = task.sections[index]!;
    let out: { html: string; failure: SectionFailure | null };
    try {
      if (deadline - now() <= 0) throw new Error('page time budget exhausted');
      const skipped = skip.get(section.rendererKey);
      if (skipped !== undefined) throw new Error(skipped);
      const parse = { startedAt: -1 };
      const templates = sectionTemplates(compiled, section.rendererKey, () => {
        parse.startedAt = now();
        post({ type: 'parsing', index });
      });
      if (parse.startedAt >= 0) {
        const spent = Math.min(warmup, now() - parse.startedAt);
        warmup -= spent;
        deadline += spent;
        post({ type: 'parsed', index, parses: parsed(), deadline });
      }
      if (templates instanceof Error) throw templates;
      const remaining = deadline - now();
      if (remaining <= 0) throw new Error('page time budget exhausted');
      const own = renderLiquid(compiled, templates, { ...objects, section: sectionObject(theme, section) }, env, {
        timeMs: Math.min(task.sectionTimeMs, remaining),
        maxChars: task.maxPageChars - size,
      });
      out = { html: wrapSection(section, own), failure: null };
    } catch (err) {
      out = failed(section.id, err);
    }
    if (size + out.html.length > task.maxPageChars) out = failed(section.id, new Error('page output limit exceeded'));
    size += out.html.length;
    parts.push(out.html);
    post({ type: 'section', index, ...out, parses: parsed() });
  }

  if (compiled.layout === null) return post({ type: 'layout', html: null, failure: null, parses: parsed() });
  const content = task.page.template === '404' ? notFoundContent(t) : parts.join('\n');
  try {
    if (compiled.layout instanceof Error) throw compiled.layout;
    const timeMs = Math.max(task.layoutMinMs, deadline - now());
    const html = renderLiquid(compiled, compiled.layout, { ...objects, content_for_layout: new SafeHtml(content) }, env, {
      timeMs,
      maxChars: task.maxPageChars * 2,
    });
    post({ type: 'layout', html, failure: null, parses: parsed() });
  } catch (err) {
    const { html, failure } = failed('layout', err);
    post({ type: 'layout', html: barePage(task.locale, task.storeName, html, content), failure, parses: parsed() });
  }
}

/** A Liquid section in Shopify's wrapper, followed by its app blocks (the platform renders those, whatever the theme's code). */
function wrapSection(section: RenderedSection, own: string): string {
  const apps = section.blocks
    .filter((b) => b.app)
    .map(renderAppBlock)
    .join('');
  return `<div id="shopify-section-${escapeHtml(section.id)}" class="shopify-section" data-section-type="${escapeHtml(section.type)}">${own}${apps}</div>`;
}
