import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { LiquidTheme } from './theme.js';
import { compiledCache, compileInto, renderLiquidPage, type LiquidPageMessage, type LiquidPageTask } from './page.js';

/**
 * A render thread (docs/rendering.md, Threads): started by the web process's pool (render.ts),
 * it keeps compiled theme versions and renders one Liquid page at a time. It imports no domain,
 * no database and no HTTP: only liquidjs and the rendering's own pure modules.
 */

/** From the web process: a page to render (with its theme version when the thread may lack it), or the theme it asked for. */
export type RenderThreadRequest = { type: 'render'; task: LiquidPageTask; theme: LiquidTheme | null } | { type: 'theme'; theme: LiquidTheme };

export type RenderThreadData = { port: MessagePort; cacheEntries: number; cacheChars: number };

const data = workerData as RenderThreadData;
const cache = compiledCache(data.cacheEntries, data.cacheChars);
const post = (message: LiquidPageMessage) => data.port.postMessage(message);
let waiting: LiquidPageTask | null = null;
/** Templates parsed by this thread, and how many of them were reported. */
let parses = 0;
let reported = 0;
const parsed = () => {
  const since = parses - reported;
  reported = parses;
  return since;
};

function handle(request: RenderThreadRequest): void {
  const task = request.type === 'render' ? request.task : waiting;
  if (!task) return;
  waiting = null;
  const theme = request.theme;
  parsed();
  const fresh = theme !== null && !cache.get(task.key);
  if (fresh) compileInto(cache, task.key, theme, () => parses++);
  const compiled = cache.get(task.key);
  if (!compiled) {
    waiting = task;
    return post({ type: 'need-theme' });
  }
  const now = performance.timeOrigin + performance.now();
  // A page's first task starts its time now; a later one (its thread before was stopped) moves the deadline by this thread's start and compile.
  const moved = task.resumedAt === null ? 0 : Math.min(task.warmupBudgetMs, Math.max(0, now - task.resumedAt));
  const page = { deadline: task.deadline === null ? now + task.budgetMs : task.deadline + moved, warmup: task.warmupBudgetMs - moved };
  post({ type: 'compiled', fresh, parses: parsed(), deadline: page.deadline });
  renderLiquidPage(compiled, task, page, parsed, post);
}

parentPort!.on('message', handle);
