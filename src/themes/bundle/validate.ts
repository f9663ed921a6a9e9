import type { Config } from '../../config.js';
import { isLayoutFile, isObj, type Obj } from './json.js';
import { normalise } from './normalise.js';
import { BundleCheck } from './rule.js';
import { BUNDLE_RULES } from './rules/index.js';
import { MAX_BUNDLE_BYTES, MAX_BUNDLE_DEPTH, MAX_BUNDLE_NODES } from './schema.js';
import type { BundleValidation, Template, TemplateKey, ThemeBundle } from './types.js';

/**
 * Bundle validation (spec 2.5, 7; docs/themes.md, Validation rules): limits first (size, depth,
 * count, before anything walks the whole document), then the rules (rules/index.ts, one per file:
 * the JSON Schema, every shape problem at once, then what a schema cannot express), then
 * normalisation (defaults filled). Issues are `path: message` strings, every one in one pass; a
 * rule that does not block reports warnings, which never do.
 */

/** What validation needs of the platform. No rule depends on the environment today. */
export type BundleContext = { config: Pick<Config, 'env'> };

type Issue = { path: string; message: string };

/**
 * Validate and normalise a theme bundle: every issue in one pass. `bundle` is present only when
 * `ok`. Never throws, whatever `raw` is.
 */
export function validateBundle(raw: unknown, context: BundleContext): BundleValidation {
  void context;
  if (!isObj(raw)) return { ok: false, issues: ['bundle: must be a JSON object'], warnings: [] };
  const limit = checkLimits(raw);
  if (limit.length > 0) return { ok: false, issues: render(limit), warnings: [] };
  // A copy of plain JSON: nothing the caller holds is shared with the normalised bundle.
  let b: Obj;
  try {
    const json = JSON.stringify(raw);
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > MAX_BUNDLE_BYTES) return { ok: false, issues: [`bundle: must be at most ${MAX_BUNDLE_BYTES} bytes as JSON (it is ${bytes})`], warnings: [] };
    const copy: unknown = JSON.parse(json);
    if (!isObj(copy)) return { ok: false, issues: ['bundle: must be a JSON object'], warnings: [] };
    b = copy;
  } catch {
    return { ok: false, issues: ['bundle: must be JSON (it holds a value JSON cannot carry)'], warnings: [] };
  }

  const issues: Issue[] = [];
  const warnings: Issue[] = [];
  const check = new BundleCheck(b);
  for (const rule of BUNDLE_RULES) {
    const found = rule.blocking ? issues : warnings;
    rule.run(check, (path, message) => void found.push({ path, message }));
  }
  if (issues.length > 0) return { ok: false, issues: render(issues), warnings: render(warnings) };
  return { ok: true, bundle: normalise(b), issues: [], warnings: render(warnings) };
}

/** Depth and size, walked without recursion so neither a deep nor a wide document can exhaust the stack or the heap. */
function checkLimits(raw: Obj): Issue[] {
  const stack: [unknown, number][] = [[raw, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++nodes > MAX_BUNDLE_NODES) return [{ path: 'bundle', message: `must hold at most ${MAX_BUNDLE_NODES} values (objects, arrays, strings, numbers...)` }];
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_BUNDLE_DEPTH) return [{ path: 'bundle', message: `must not nest objects and arrays deeper than ${MAX_BUNDLE_DEPTH} levels` }];
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push([child, depth + 1]);
  }
  return [];
}

/** `path: message` strings (the root is `bundle`), each once, in the order found. */
function render(issues: Issue[]): string[] {
  return [...new Set(issues.map((i) => `${i.path || 'bundle'}: ${i.message}`))];
}

// --- drafts (docs/themes.md, Editor and drafts)

export type DraftValidation = { ok: true; content: Template | ThemeBundle['config']['settings_data'] } | { ok: false; issues: string[] };

/**
 * A store's draft of one template (`key`), or of the theme settings (`settings_data`), checked by
 * the bundle's own rules: the installed bundle with that area replaced is validated whole, so the
 * issues are the upload's, at the same paths (`templates.<key>.sections.<id>.type`,
 * `config.settings_data.current.<id>`). The stored bundle is valid, so every issue is the draft's.
 * The content answered is normalised (defaults filled), as an upload's would be.
 */
export function validateDraft(bundle: ThemeBundle, key: TemplateKey | 'settings_data', content: unknown, context: BundleContext): DraftValidation {
  const settings = key === 'settings_data';
  const candidate = {
    ...bundle,
    config: settings ? { ...bundle.config, settings_data: content } : bundle.config,
    templates: settings ? bundle.templates : { ...bundle.templates, [key]: content },
    renderer: { ...bundle.renderer, assets: bundle.renderer.assets.filter((a) => !isLayoutFile(a.path)) },
  };
  const result = validateBundle(candidate, context);
  if (!result.ok || !result.bundle) return { ok: false, issues: result.issues };
  const normalised = settings ? result.bundle.config.settings_data : result.bundle.templates[key];
  return normalised ? { ok: true, content: normalised } : { ok: false, issues: [`templates.${key}: is required`] };
}
