import { availableParallelism } from 'node:os';
import { PlatformError } from '../../errors.js';
import type { Log } from '../../log.js';
import type { Platform } from '../../platform.js';
import type { StoreView } from '../../stores/index.js';
import type { RenderableTheme, ThemeBundle } from '../../themes/index.js';
import { PoolBusy, ThreadPool, ThreadStopped, type Lease } from '../../threads/pool.js';
import { LruCache } from './cache.js';
import { barePage, failureComment, newErrorId, type SectionFailure } from './failures.js';
import { renderJsonContractLayout, renderJsonContractSection, type JsonContractEnv } from '../json-contract.js';
import type { LiquidPageMessage, LiquidPageTask } from './page.js';
import { liquidThemeOf, type LiquidTheme } from './theme.js';
import { translator, type Translate } from '../locale.js';
import { buildPageModel, pageLocale, type PageModel, type PageRequest } from '../page.js';
import type { RenderThreadData, RenderThreadRequest } from './render-thread.js';
import { templateSections, themeSettings, type RenderedSection } from '../sections.js';
import { resolvePageAppBlocks } from '../app-block-resolution.js';
import { notFoundContent, themeAssetUrl } from '../theme-look.js';

/** Limits of one page render (docs/rendering.md, Limits). */
export type PageLimits = {
  /** Wall time for all of a page's Liquid sections (the layout gets at least LAYOUT_MIN_MS more); a section started after it is skipped. */
  pageBudgetMs: number;
  /** Time for one Liquid section: liquidjs's `renderLimit` between template nodes, and the thread is stopped past it (and a grace). */
  sectionTimeMs: number;
  /** The page's HTML, in characters; a section that would pass it fails. */
  maxPageChars: number;
  /** Time for a thread to parse one file it has not parsed yet (the layout, a section's); past it the thread is stopped. */
  parseTimeMs: number;
  /**
   * How much a page's time may grow for warming a thread up: the files it parsed for the page (a
   * thread new to the theme version), and a replacement thread's start after one was stopped.
   */
  warmupBudgetMs: number;
  /** How long a section whose thread had to be stopped is not run again (for that theme version, in this process). */
  stoppedSectionPauseMs: number;
};
export const PAGE_LIMITS: PageLimits = {
  pageBudgetMs: 1000,
  sectionTimeMs: 250,
  maxPageChars: 2 * 1024 * 1024,
  parseTimeMs: 1000,
  warmupBudgetMs: 1000,
  stoppedSectionPauseMs: 60_000,
};
/** The layout's time even when the sections spent the page's budget, so the page keeps its frame. */
const LAYOUT_MIN_MS = 100;
/** How long past a step's own time the web process waits for its thread before stopping it (the thread's own limits usually end the step first). */
const STOP_GRACE_MS = 100;

export type RenderedPage = {
  html: string;
  status: number;
  /** False when a section or the layout failed: the page is not the one the theme makes, and no cache may keep it. */
  complete: boolean;
};

export type RendererOptions = {
  /** Render threads (0 or unset: two to four, by the machine's cores). */
  threads?: number;
  /** Each thread's heap limit (V8 old generation), MB. */
  threadMemoryMb?: number;
  /** Compiled theme versions a thread keeps (LRU), and the characters of their sources at most. */
  cacheEntries?: number;
  cacheChars?: number;
  limits?: PageLimits;
  log?: Log;
};

/** The renderer of one web process: its render threads and limits. */
export type PageRenderer = {
  render(platform: Platform, store: StoreView, theme: RenderableTheme, request: PageRequest): Promise<RenderedPage>;
  /** The page's data (the storefront reads of its products, collections and cart): the first half of `render`. */
  prepare(platform: Platform, store: StoreView, theme: RenderableTheme, request: PageRequest): Promise<PreparedPage>;
  /** The second half: the prepared page into HTML, no reads (bench:render times it alone). */
  renderPrepared(platform: Platform, store: StoreView, theme: RenderableTheme, request: PageRequest, prepared: PreparedPage): Promise<RenderedPage>;
  /**
   * Counters: Liquid pages whose thread held the theme version (`hits`) or compiled it (`misses`),
   * templates parsed, threads alive and threads stopped (a step past its time, or a thread that died).
   */
  stats(): { hits: number; misses: number; parses: number; threads: number; stopped: number };
  /** Stop the threads (the process is stopping). */
  close(): Promise<void>;
};

/** Threads when not configured: one per core, at least two (one store's pages never hold them all) and at most four. */
export const defaultRenderThreads = () => Math.min(4, Math.max(2, availableParallelism()));

export function createPageRenderer(options: RendererOptions = {}): PageRenderer {
  const limits = options.limits ?? PAGE_LIMITS;
  const size = options.threads || defaultRenderThreads();
  const counters = { hits: 0, misses: 0, parses: 0, stopped: 0 };
  const data: Omit<RenderThreadData, 'port'> = { cacheEntries: options.cacheEntries ?? 64, cacheChars: options.cacheChars ?? 32 * 1024 * 1024 };
  // What the pool remembers a thread holds is what the thread keeps, at most.
  const pool = new ThreadPool({
    name: 'render',
    script: new URL('./render-thread.js', import.meta.url),
    workerData: data,
    holdsPerThread: data.cacheEntries,
    size,
    resourceLimits: { maxOldGenerationSizeMb: options.threadMemoryMb ?? 256, stackSizeMb: 4 },
    // One store's pages take at most half the threads; the rest wait a little, then are refused (503).
    perTenant: Math.max(1, Math.floor(size / 2)),
    maxQueuedPerTenant: 32,
    maxWaitMs: 3000,
    onThreadEnd: (info) => {
      counters.stopped++;
      options.log?.warn({ event: 'render.thread_stopped', thread: info.thread, reason: info.reason, detail: info.detail });
    },
  });
  const liquid: LiquidRendering = { pool, limits, counters, paused: new LruCache<number>(1000) };
  return {
    render: async (platform, store, theme, request) =>
      renderPrepared(platform, store, theme, request, await preparePage(platform, store, theme, request), liquid),
    prepare: preparePage,
    renderPrepared: (platform, store, theme, request, prepared) => renderPrepared(platform, store, theme, request, prepared, liquid),
    stats: () => ({ ...counters, threads: pool.size }),
    close: () => pool.close(),
  };
}

/** Each platform's renderer (one per process; tests open several platforms). */
const renderers = new WeakMap<Platform, PageRenderer>();

export function pageRendererOf(platform: Platform): PageRenderer {
  let renderer = renderers.get(platform);
  if (!renderer) {
    const { threads, threadMemoryMb } = platform.config.rendering;
    renderer = createPageRenderer({ threads, threadMemoryMb, log: platform.log });
    renderers.set(platform, renderer);
  }
  return renderer;
}

/** Stop the platform's render threads, if it started any. */
export async function closePageRenderer(platform: Platform): Promise<void> {
  const renderer = renderers.get(platform);
  renderers.delete(platform);
  await renderer?.close();
}

/**
 * Render one page of a store's theme (the live one, or a preview's): its template's sections in
 * order into HTML, in the theme's engine. A product or collection page whose handle names
 * nothing, or a template the theme lacks, is a `not_found` PlatformError; a section that fails
 * renders as an HTML comment with an error id (logged), the rest of the page renders, and the
 * page says it is not `complete` (never to be cached). When
 * every render thread is taken by the store's other pages for too long, `unavailable` (503).
 */
export function renderPage(platform: Platform, store: StoreView, theme: RenderableTheme, request: PageRequest): Promise<RenderedPage> {
  return pageRendererOf(platform).render(platform, store, theme, request);
}

/** A page's sections (resolved settings) and its data, read from the storefront. */
export type PreparedPage = { locale: string; t: Translate; sections: RenderedSection[]; page: PageModel };

async function preparePage(platform: Platform, store: StoreView, theme: RenderableTheme, request: PageRequest): Promise<PreparedPage> {
  const locale = pageLocale(theme, request.locale, store.locale);
  const t = translator(theme.bundle.locales, locale);
  const found = request.template === '404' ? [] : templateSections(theme, request.template, t);
  if (!found) throw new PlatformError('not_found', 'template_not_found', `This theme has no ${request.template} template`);
  const sections = await resolvePageAppBlocks(platform, store.id, found);
  return { locale, t, sections, page: await buildPageModel(platform, store, sections, locale, request, theme) };
}

type LiquidRendering = {
  pool: ThreadPool;
  limits: PageLimits;
  counters: { hits: number; misses: number; parses: number };
  /** Sections whose thread was stopped, until when they are not run: `<source key>|<renderer key>` → epoch ms. */
  paused: LruCache<number>;
};

/** What a failure is logged with: the page's ids and the section. */
type FailureLog = (section: string, failure: SectionFailure) => string;

async function renderPrepared(
  platform: Platform,
  store: StoreView,
  theme: RenderableTheme,
  request: PageRequest,
  prepared: PreparedPage,
  liquid: LiquidRendering,
): Promise<RenderedPage> {
  const { locale, t, sections, page } = prepared;
  const settings = themeSettings(theme, t);
  let failures = 0;
  const logFailure: FailureLog = (section, failure) => {
    failures++;
    platform.log.warn({
      event: 'render.section_failed',
      error_id: failure.errorId,
      store_id: store.id,
      theme: theme.slug,
      version_id: theme.versionId,
      template: request.template,
      section,
      err: failure.message,
    });
    return failureComment(section, failure.errorId);
  };
  const failure = (section: string, err: unknown) => logFailure(section, { errorId: newErrorId(), message: err instanceof Error ? err.message : String(err) });

  if (theme.bundle.renderer.engine === 'liquid') {
    const task: LiquidPageTask = {
      key: theme.sourceKey,
      sections,
      from: 0,
      done: [],
      page,
      settings,
      locale,
      storeName: store.name,
      currency: store.currency,
      assetBase: `/v1/storefront/${encodeURIComponent(store.subdomain)}/assets/${theme.versionId}/`,
      deadline: null,
      budgetMs: liquid.limits.pageBudgetMs,
      warmupBudgetMs: liquid.limits.warmupBudgetMs,
      resumedAt: null,
      skip: pausedSections(liquid, theme.sourceKey, sections),
      sectionTimeMs: liquid.limits.sectionTimeMs,
      layoutMinMs: LAYOUT_MIN_MS,
      maxPageChars: liquid.limits.maxPageChars,
    };
    const html = await renderLiquidInThreads(liquid, store.id, theme.bundle, task, logFailure, failure);
    return { html, status: pageStatus(page), complete: failures === 0 };
  }

  const assetUrl = (path: string) => themeAssetUrl(store.subdomain, theme.versionId, path);
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
    if (size + html.length > liquid.limits.maxPageChars) html = failure(section.id, new Error('page output limit exceeded'));
    size += html.length;
    parts.push(html);
  }
  const content = page.template === '404' ? notFoundContent(t) : parts.join('\n');
  return { html: renderJsonContractLayout(env, settings, content), status: pageStatus(page), complete: failures === 0 };
}

/** A page's status: 404 for the not-found page in the theme, else 200. */
const pageStatus = (page: PageModel) => (page.template === '404' ? 404 : 200);

/** The page's sections that are paused (their thread was stopped lately), with why. */
function pausedSections(liquid: LiquidRendering, sourceKey: string, sections: readonly RenderedSection[]): [string, string][] {
  const now = Date.now();
  const paused: [string, string][] = [];
  for (const key of new Set(sections.map((s) => s.rendererKey))) {
    const until = liquid.paused.get(`${sourceKey}|${key}`);
    if (until !== undefined && until > now)
      paused.push([key, `not run until ${new Date(until).toISOString()}: its render thread was stopped for running past its time`]);
  }
  return paused;
}

/** A theme version's slim copy for the threads, made once per bundle the process holds. */
const liquidThemes = new WeakMap<ThemeBundle, LiquidTheme>();
function liquidThemeFor(bundle: ThemeBundle): LiquidTheme {
  let found = liquidThemes.get(bundle);
  if (!found) liquidThemes.set(bundle, (found = liquidThemeOf(bundle)));
  return found;
}

/**
 * A Liquid page in the render threads. Each step has its time: the compile, each section, the
 * layout; a thread that overruns one (plus a grace) is stopped, that step fails, and the page
 * goes on from the next section on another thread while the page's time lasts (then the sections
 * left fail, and the layout too if it cannot run: the sections in a bare page).
 */
async function renderLiquidInThreads(
  liquid: LiquidRendering,
  storeId: string,
  bundle: ThemeBundle,
  first: LiquidPageTask,
  logFailure: FailureLog,
  failure: (section: string, err: unknown) => string,
): Promise<string> {
  const { limits, counters } = liquid;
  const sections = first.sections;
  const parts: string[] = [];
  let deadline: number | null = null;
  /** The page's deadline as first set, so the warm-up budget left is known; when the last thread was stopped. */
  let firstDeadline: number | null = null;
  let resumedAt: number | null = null;
  let layout: string | null | undefined;
  /** What the thread was doing when it was stopped. */
  let step: 'compile' | 'sections' | 'layout' = 'compile';
  const now = () => performance.timeOrigin + performance.now();
  const left = () => (deadline === null ? limits.pageBudgetMs : deadline - now());

  const converse = async (lease: Lease) => {
    const theme = liquidThemeFor(bundle);
    const send = (request: RenderThreadRequest) => lease.send(request);
    const next = async (timeoutMs: number) => {
      const message = await lease.next<LiquidPageMessage>(timeoutMs);
      if ('parses' in message) counters.parses += message.parses;
      return message;
    };
    step = 'compile';
    const warmupBudgetMs = firstDeadline === null || deadline === null ? first.warmupBudgetMs : Math.max(0, first.warmupBudgetMs - (deadline - firstDeadline));
    send({
      type: 'render',
      task: { ...first, from: parts.length, done: [...parts], deadline, resumedAt, warmupBudgetMs },
      theme: lease.holds.has(first.key) ? null : theme,
    });
    let message = await next(limits.parseTimeMs);
    if (message.type === 'need-theme') {
      send({ type: 'theme', theme });
      message = await next(limits.parseTimeMs);
    }
    if (message.type !== 'compiled') throw new Error(`render thread answered ${message.type} before compiled`);
    lease.remember(first.key);
    if (message.fresh) counters.misses++;
    else counters.hits++;
    deadline = message.deadline;
    firstDeadline ??= message.deadline;
    step = 'sections';
    while (parts.length < sections.length) {
      message = await next(Math.min(limits.sectionTimeMs, Math.max(0, left())) + STOP_GRACE_MS);
      if (message.type === 'parsing') {
        message = await next(limits.parseTimeMs + STOP_GRACE_MS);
        if (message.type !== 'parsed') throw new Error(`render thread answered ${message.type} instead of parsed`);
        deadline = message.deadline;
        message = await next(Math.min(limits.sectionTimeMs, Math.max(0, left())) + STOP_GRACE_MS);
      }
      if (message.type !== 'section' || message.index !== parts.length) throw new Error(`render thread answered ${message.type} out of order`);
      parts.push(message.failure ? logFailure(sections[message.index]!.id, message.failure) : message.html);
    }
    step = 'layout';
    message = await next(Math.max(LAYOUT_MIN_MS, left()) + STOP_GRACE_MS);
    if (message.type !== 'layout') throw new Error(`render thread answered ${message.type} instead of the layout`);
    if (message.failure) logFailure('layout', message.failure);
    layout = message.html;
  };

  // The page's body when the layout cannot frame it: the sections, or the not-found body of a 404.
  const body = () => (first.page.template === '404' ? notFoundContent(translator(bundle.locales, first.locale)) : parts.join('\n'));
  while (layout === undefined) {
    try {
      await liquid.pool.run(storeId, first.key, converse);
    } catch (err) {
      if (err instanceof PoolBusy) {
        throw new PlatformError('unavailable', 'render_busy', "This store's pages are rendering more than it may at once; try again in a moment", {
          retryAfterSeconds: 1,
        });
      }
      if (!(err instanceof ThreadStopped)) throw err;
      const rest = (why: string) => {
        while (parts.length < sections.length) parts.push(failure(sections[parts.length]!.id, why));
        layout = barePage(first.locale, first.storeName, failure('layout', why), body());
      };
      if (step === 'compile') rest(`the theme could not be compiled in its time (${err.message})`);
      else if (step === 'layout') layout = barePage(first.locale, first.storeName, failure('layout', err), body());
      else {
        const section = sections[parts.length]!;
        if (err.reason !== 'closed') liquid.paused.set(`${first.key}|${section.rendererKey}`, Date.now() + limits.stoppedSectionPauseMs);
        parts.push(failure(section.id, err));
        resumedAt = now();
        if (left() <= 0) rest('page time budget exhausted');
      }
    }
  }
  return layout ?? body();
}
