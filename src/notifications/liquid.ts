import { Context, Drop, Liquid, toValueSync, type Emitter, type FilterImplOptions, type FS, type Template } from 'liquidjs';
import { escapeHtml } from '../html.js';
import { liquidFileProblem, scanLiquid } from '../liquid-bounds.js';
import { decimalAmount } from '../money.js';

/**
 * The Liquid a merchant writes for a notification (docs/notifications.md, Limits), bounded as a
 * theme's Liquid is (src/liquid-bounds.ts) and tighter: one template is small, reads no file
 * (`render`, `include` and `layout` find nothing), sees only the objects it is given (own
 * properties only), and its render stops past a time, memory and output limit. So a template
 * cannot stall the process that renders it (the web process for a preview, the webhooks worker
 * for a send) nor read what it was not given.
 */
export const NOTIFICATION_LIMITS = {
  /** Characters of one template (a subject, a text or an HTML body). */
  chars: 64 * 1024,
  /** liquidjs `renderLimit`: milliseconds of one render, checked between template nodes. */
  renderMs: 250,
  /** liquidjs `memoryLimit`: allocation units of one render (ranges, joins, string building). */
  memory: 2_000_000,
  /** Characters of one render's output. */
  output: 512 * 1024,
  /** What one filter may be given or make: items of an array, characters of a string. */
  filterItems: 5_000,
  filterChars: 256 * 1024,
} as const;

/** Why a template cannot be used: the message liquidjs gives, with its line when it has one. */
export class TemplateProblem extends Error {
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
  }
}

/** Markup built by the platform (the email layout's parts), emitted as it is in an HTML template. */
export class SafeMarkup extends Drop {
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

const stringOf = (value: unknown): string => {
  const v = value instanceof Drop ? value.valueOf() : value;
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(stringOf).join('');
  return String(v);
};

/** A file system with nothing in it: `{% render %}`, `{% include %}` and `{% layout %}` find no file. */
const NO_FILES: FS = {
  resolve: () => '\0none',
  exists: () => Promise.resolve(false),
  existsSync: () => false,
  readFile: () => Promise.reject(new Error('a notification template reads no file')),
  readFileSync: () => {
    throw new Error('a notification template reads no file');
  },
  contains: () => Promise.resolve(false),
  containsSync: () => false,
  sep: '/',
  dirname: () => '',
};

class CappedEmitter implements Emitter {
  buffer = '';
  write(html: unknown): void {
    this.buffer += stringOf(html);
    if (this.buffer.length > NOTIFICATION_LIMITS.output) throw new Error(`output limit exceeded (${NOTIFICATION_LIMITS.output} characters)`);
  }
}

/** An amount in minor units in its currency, as an email shows it (`1999`, USD → `$19.99`). */
export function formatAmount(minor: unknown, currency: string, locale = 'en'): string {
  const n = Number(minor);
  if (!Number.isFinite(n)) return '';
  const amount = Number(decimalAmount(Math.round(n), currency));
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${decimalAmount(Math.round(n), currency)} ${currency}`;
  }
}

function engine(html: boolean): Liquid {
  const liquid = new Liquid({
    fs: NO_FILES,
    relativeReference: false,
    dynamicPartials: false,
    cache: false,
    strictFilters: true,
    strictVariables: false,
    ownPropertyOnly: true,
    jsTruthy: false,
    ...(html ? { outputEscape: (v: unknown) => (v instanceof SafeMarkup ? v.html : escapeHtml(stringOf(v))) } : {}),
    parseLimit: NOTIFICATION_LIMITS.chars,
    renderLimit: NOTIFICATION_LIMITS.renderMs,
    memoryLimit: NOTIFICATION_LIMITS.memory,
    timezoneOffset: 0,
  });
  // `money` takes the currency from the render's `shop.currency` (Shopify's filter of the same name).
  liquid.registerFilter('money', function (this: { context: Context }, value: unknown) {
    const shop = this.context.getSync(['shop']) as { currency?: string } | undefined;
    return formatAmount(value, shop?.currency ?? 'USD');
  });
  if (html) liquid.registerFilter('escape', (value: unknown) => new SafeMarkup(escapeHtml(stringOf(value))));
  capFilters(liquid);
  return liquid;
}

/** Every filter refuses input and output past the limits, so one call's work is bounded whatever the template built before it. */
function capFilters(liquid: Liquid): void {
  const check = (name: string, value: unknown) => {
    if (Array.isArray(value) && value.length > NOTIFICATION_LIMITS.filterItems) throw new Error(`the ${name} filter's array is too long`);
    if (typeof value === 'string' && value.length > NOTIFICATION_LIMITS.filterChars) throw new Error(`the ${name} filter's text is too long`);
  };
  for (const [name, impl] of Object.entries(liquid.filters) as [string, FilterImplOptions][]) {
    const handler = typeof impl === 'function' ? impl : impl.handler;
    const capped = function (this: unknown, value: unknown, ...args: unknown[]): unknown {
      check(name, value);
      for (const arg of args) check(name, arg);
      const made: unknown = handler.call(this as never, value, ...args);
      if (typeof made === 'object' && made !== null && typeof (made as Generator).next === 'function') return made;
      check(name, made);
      return made;
    };
    liquid.registerFilter(name, typeof impl === 'function' ? capped : { ...impl, handler: capped });
  }
}

const TEXT = engine(false);
const HTML = engine(true);

export type TemplatePart = 'subject' | 'text' | 'html';

const lineOf = (err: unknown): number | null => {
  const token = (err as { token?: { getPosition?: () => number[] } }).token;
  const position = token?.getPosition?.();
  return position?.[0] ?? null;
};

/** A template parsed within the bounds, or a TemplateProblem saying why not (with its line). */
export function parseTemplate(source: string, part: TemplatePart): Template[] {
  if (source.length > NOTIFICATION_LIMITS.chars) throw new TemplateProblem(`is longer than ${NOTIFICATION_LIMITS.chars} characters`, null);
  const problem = liquidFileProblem(scanLiquid(source));
  if (problem) throw new TemplateProblem(problem, null);
  try {
    return (part === 'html' ? HTML : TEXT).parse(source);
  } catch (err) {
    throw new TemplateProblem(firstLine(err), lineOf(err));
  }
}

const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);

/** Render a parsed template with its objects; a render past a limit or failing is a TemplateProblem. */
export function renderTemplate(templates: Template[], part: TemplatePart, scope: Record<string, unknown>): string {
  const liquid = part === 'html' ? HTML : TEXT;
  const ctx = new Context(scope, liquid.options, { ownPropertyOnly: true, renderLimit: NOTIFICATION_LIMITS.renderMs, sync: true }, { liquid });
  const emitter = new CappedEmitter();
  try {
    toValueSync(liquid.renderer.renderTemplates(templates, ctx, emitter));
  } catch (err) {
    throw new TemplateProblem(firstLine(err), lineOf(err));
  }
  return emitter.buffer;
}
