import { checkLiquidBounds } from '../../liquid-bounds.js';
import type { Platform } from '../../platform.js';
import { ThreadPool, ThreadStopped } from '../../threads/pool.js';
import type { ThemeBundle } from '../bundle/types.js';
import type { SyntaxAnswer, SyntaxRequest } from './liquid-syntax-thread.js';

/** How long the parse of a theme's Liquid files may take in the check's thread (they are within the bounds: milliseconds, normally). */
export const LIQUID_PARSE_TIME_MS = 10_000;

/** Each process's thread for the check (the themes worker's; created when first needed). */
const pools = new WeakMap<Platform, ThreadPool>();

function poolOf(platform: Platform): ThreadPool {
  let pool = pools.get(platform);
  if (!pool) {
    pool = new ThreadPool({
      name: 'liquid-syntax',
      script: new URL('./liquid-syntax-thread.js', import.meta.url),
      size: 1,
      resourceLimits: { maxOldGenerationSizeMb: platform.config.rendering.threadMemoryMb, stackSizeMb: 4 },
      perTenant: 1,
      maxQueuedPerTenant: 100,
      maxWaitMs: LIQUID_PARSE_TIME_MS * 10,
      onThreadEnd: (info) => platform.log.warn({ event: 'themes.liquid_syntax_thread_stopped', reason: info.reason, detail: info.detail }),
    });
    pools.set(platform, pool);
  }
  return pool;
}

export async function closeLiquidSyntaxThreads(platform: Platform): Promise<void> {
  const pool = pools.get(platform);
  pools.delete(platform);
  await pool?.close();
}

/**
 * What the review's `liquid_syntax` check finds (checks/liquid-syntax.ts; docs/themes.md, Review):
 * the bounds every Liquid file keeps (src/liquid-bounds.ts, as at upload and when rendering), then
 * every file within them parsed by liquidjs, off the worker's event loop, within
 * LIQUID_PARSE_TIME_MS. Each problem is `path[:line:column]: message`.
 */
export async function checkLiquidSyntax(platform: Platform, bundle: ThemeBundle): Promise<string[]> {
  const files = bundle.renderer.assets.flatMap((a) => (a.path.endsWith('.liquid') && a.content !== undefined ? [{ path: a.path, content: a.content }] : []));
  const bounds = checkLiquidBounds(files);
  if (bounds.theme) return [bounds.theme];
  const details = [...bounds.files].map(([path, problem]) => `${path}: ${problem}`);
  const request: SyntaxRequest = { files: files.filter((f) => !bounds.files.has(f.path)).map((f) => [f.path, f.content]) };
  try {
    const answer = await poolOf(platform).run('review', null, async (lease) => {
      lease.send(request);
      return lease.next<SyntaxAnswer>(LIQUID_PARSE_TIME_MS);
    });
    details.push(...answer.errors);
  } catch (err) {
    if (!(err instanceof ThreadStopped)) throw err;
    details.push(`the Liquid files could not be parsed within ${LIQUID_PARSE_TIME_MS / 1000} s (${err.message})`);
  }
  return details;
}
