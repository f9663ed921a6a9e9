import { Ajv } from 'ajv';
import type { Config } from '../../config.js';
import { schemaIssue } from '../../schema-issues.js';
import { unstorableJson } from '../../storable.js';
import { checkUrlShape } from '../../outbound/index.js';
import {
  BRIDGE_CAPABILITIES,
  COMPLIANCE_TOPICS,
  LIFECYCLE_TOPICS,
  ADDRESSED_TOPICS,
  EXTENSION_KINDS,
  MANIFEST_SCHEMA_VERSION,
  type AppManifest,
  type BridgeCapability,
  type ExtensionKind,
  type ManifestExtension,
} from './types.js';
import { isScope, normaliseScopes, topicScope } from '../oauth/scopes.js';
import { CHECKOUT_FUNCTION_TARGETS } from '../functions/targets.js';
import { programIssues } from '../functions/program.js';
import { settingsIssues } from '../functions/settings.js';

/**
 * Manifest validation (docs/apps.md, The manifest): an ajv schema for the shape (every problem
 * at once: `allErrors`), then the rules a schema cannot express (URLs, the scope registry, event
 * types, uniqueness, extension targets, checkout functions' programs), then normalisation. Issues are `path: message` strings
 * with paths relative to the manifest (`redirect_urls.1: must use https`), the shape theme
 * validation uses (spec 7).
 */

/**
 * Webhook topics an app may list besides the platform's store topics: its own lifecycle, events
 * addressed to it (its bulk operations finishing), and the mandatory compliance topics (every
 * app's subscription gets all of these whether listed or not).
 */
export const APP_WEBHOOK_TOPICS = [...LIFECYCLE_TOPICS, ...ADDRESSED_TOPICS, ...COMPLIANCE_TOPICS] as const;

/** The whole manifest, as JSON. */
export const MAX_MANIFEST_BYTES = 64 * 1024;
/** One extension's `config`, as JSON. */
export const MAX_EXTENSION_CONFIG_BYTES = 8 * 1024;
export const MAX_REDIRECT_URLS = 10;
export const MAX_EXTENSIONS = 25;

/** Where a theme app block may go: into a section that accepts app blocks, or the page body (an app embed). */
export const THEME_APP_BLOCK_TARGETS = ['body', 'section'] as const;

export const DEFAULT_BRIDGE_CAPABILITIES: BridgeCapability[] = ['api.fetch', 'resize', 'toast'];

// Semantic Versioning 2.0.0's own expression (semver.org).
const SEMVER =
  '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][a-zA-Z0-9-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][a-zA-Z0-9-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$';
// Case-insensitive here; normalisation lowercases.
const KEBAB = '^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$';
const KEBAB_MESSAGE = 'must be kebab-case: letters, digits and single hyphens (stored in lower case), e.g. "order-printer"';

const url = { type: 'string', minLength: 1, maxLength: 2048 };
const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max, pattern: '\\S', 'x-message': 'must not be blank' });

export const MANIFEST_JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['schema_version', 'name', 'handle', 'version', 'app_url', 'redirect_urls', 'scopes', 'privacy_policy_url'],
  properties: {
    schema_version: { const: MANIFEST_SCHEMA_VERSION },
    name: text(80),
    handle: { type: 'string', minLength: 3, maxLength: 60, pattern: KEBAB, 'x-message': KEBAB_MESSAGE },
    version: { type: 'string', minLength: 1, maxLength: 64, pattern: SEMVER, 'x-message': 'must be a semantic version such as 1.0.0 or 2.1.0-beta.1' },
    description: { type: 'string', maxLength: 2000 },
    app_url: url,
    redirect_urls: { type: 'array', minItems: 1, maxItems: MAX_REDIRECT_URLS, items: url },
    scopes: { type: 'array', minItems: 1, maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 64 } },
    webhooks: {
      type: 'object',
      additionalProperties: false,
      properties: { topics: { type: 'array', maxItems: 200, items: { type: 'string', minLength: 1, maxLength: 100 } } },
    },
    privacy_policy_url: url,
    support_url: { type: ['string', 'null'], minLength: 1, maxLength: 2048 },
    embedded: {
      type: 'object',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean' },
        admin_path: {
          type: 'string',
          minLength: 1,
          maxLength: 512,
          pattern: '^/(?!/)[^\\s#\\\\]*$',
          'x-message': 'must be a path starting with "/" (not "//"), without spaces, "\\" or a fragment',
        },
      },
    },
    bridge: {
      type: 'object',
      additionalProperties: false,
      properties: { capabilities: { type: 'array', maxItems: 20, items: { enum: [...BRIDGE_CAPABILITIES] } } },
    },
    extensions: {
      type: 'array',
      maxItems: MAX_EXTENSIONS,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'handle', 'name', 'target'],
        properties: {
          kind: { enum: [...EXTENSION_KINDS] },
          handle: { type: 'string', minLength: 1, maxLength: 60, pattern: KEBAB, 'x-message': KEBAB_MESSAGE },
          name: text(80),
          target: { type: 'string', minLength: 1, maxLength: 100 },
          config: { type: 'object' },
        },
      },
    },
  },
} as const;

const ajv = new Ajv({ allErrors: true, strict: true, verbose: true, allowUnionTypes: true });
// Our own annotation: the message for a `pattern` that ajv would word as the expression itself.
ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
const checkShape = ajv.compile(MANIFEST_JSON_SCHEMA);

export type ManifestValidation = { ok: true; manifest: AppManifest; issues: [] } | { ok: false; issues: string[] };

/** What validation needs of the platform: the environment (URL rules) and the event types (webhook topics). */
export type ManifestContext = { config: Pick<Config, 'env'>; eventTypes: readonly string[] };

type Issue = { path: string; message: string };

/**
 * Validate and normalise a manifest: every problem in one pass. On success the manifest is
 * normalised (defaults filled, scopes and topics sorted and deduplicated, write scopes with
 * their reads, handles and URL hosts in lower case, names trimmed).
 */
export function validateManifest(context: ManifestContext, input: unknown): ManifestValidation {
  const issues: Issue[] = [];
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, issues: ['manifest: must be a JSON object'] };
  }
  const bytes = Buffer.byteLength(JSON.stringify(input), 'utf8');
  if (bytes > MAX_MANIFEST_BYTES) issues.push({ path: '', message: `must be at most ${MAX_MANIFEST_BYTES} bytes as JSON (it is ${bytes})` });
  if (!checkShape(input)) issues.push(...(checkShape.errors ?? []).map(schemaIssue));
  const m = input as Record<string, unknown>;
  const urls = new Map<string, string>(); // path → normalised URL, for the fields that passed
  const checkUrl = (path: string, value: unknown, rule: 'app' | 'page') => {
    if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return; // the schema's
    const problem = urlProblem(context.config, value, rule);
    if (problem.ok) urls.set(path, problem.href);
    else issues.push({ path, message: problem.reason });
  };

  checkUrl('app_url', m.app_url, 'app');
  checkUrl('privacy_policy_url', m.privacy_policy_url, 'page');
  checkUrl('support_url', m.support_url, 'page');
  if (Array.isArray(m.redirect_urls)) {
    const seen = new Map<string, number>();
    m.redirect_urls.forEach((value, i) => {
      checkUrl(`redirect_urls.${i}`, value, 'app');
      const href = urls.get(`redirect_urls.${i}`);
      if (href === undefined) return;
      const first = seen.get(href);
      if (first !== undefined) issues.push({ path: `redirect_urls.${i}`, message: `is the same URL as redirect_urls.${first}` });
      else seen.set(href, i);
    });
  }
  if (Array.isArray(m.scopes)) {
    m.scopes.forEach((s, i) => {
      if (typeof s === 'string' && s.length > 0 && !isScope(s))
        issues.push({ path: `scopes.${i}`, message: `is not a scope of the registry: "${s}" (docs/apps.md, Scopes)` });
    });
  }
  const webhooks = m.webhooks as { topics?: unknown } | undefined;
  if (webhooks && Array.isArray(webhooks.topics)) {
    const known = new Set<string>([...context.eventTypes, ...APP_WEBHOOK_TOPICS]);
    const asked = new Set(normaliseScopes(Array.isArray(m.scopes) ? m.scopes.filter((s): s is string => typeof s === 'string') : []));
    const appTopics = new Set<string>(APP_WEBHOOK_TOPICS);
    webhooks.topics.forEach((t, i) => {
      if (typeof t !== 'string' || t.length === 0) return;
      if (!known.has(t)) {
        issues.push({ path: `webhooks.topics.${i}`, message: `is not an event type or app topic: "${t}" (wildcards are not accepted)` });
        return;
      }
      if (appTopics.has(t)) return;
      const needs = topicScope(t);
      if (needs === undefined) issues.push({ path: `webhooks.topics.${i}`, message: `"${t}" is not delivered to apps (docs/apps.md, App webhooks)` });
      else if (needs !== null && !asked.has(needs))
        issues.push({ path: `webhooks.topics.${i}`, message: `"${t}" needs the scope ${needs}, which the manifest does not ask for` });
    });
  }
  if (Array.isArray(m.extensions)) {
    const handles = new Map<string, number>();
    m.extensions.forEach((raw, i) => {
      if (typeof raw !== 'object' || raw === null) return;
      const e = raw as Record<string, unknown>;
      if (typeof e.handle === 'string') {
        const h = e.handle.toLowerCase();
        const first = handles.get(h);
        if (first !== undefined) issues.push({ path: `extensions.${i}.handle`, message: `is the same handle as extensions.${first}.handle` });
        else handles.set(h, i);
      }
      if (typeof e.kind === 'string' && (EXTENSION_KINDS as readonly string[]).includes(e.kind) && typeof e.target === 'string') {
        const problem = targetProblem(e.kind as ExtensionKind, e.target);
        if (problem) issues.push({ path: `extensions.${i}.target`, message: problem });
      }
      if (typeof e.config === 'object' && e.config !== null && !Array.isArray(e.config)) {
        const config = e.config as Record<string, unknown>;
        const size = Buffer.byteLength(JSON.stringify(config), 'utf8');
        if (size > MAX_EXTENSION_CONFIG_BYTES)
          issues.push({ path: `extensions.${i}.config`, message: `must be at most ${MAX_EXTENSION_CONFIG_BYTES} bytes as JSON (it is ${size})` });
        if (e.kind === 'checkout_function') issues.push(...checkoutFunctionConfigIssues(config, `extensions.${i}.config`));
        else issues.push(...unstorableJson(config, `extensions.${i}.config`));
        if (e.kind === 'admin_ui') issues.push(...adminEmbedConfigIssues(context, config, `extensions.${i}.config`));
      } else if (e.kind === 'checkout_function' && e.config === undefined) {
        issues.push({ path: `extensions.${i}.config`, message: 'is required: a checkout_function runs the program its config holds ({"program": …})' });
      }
    });
  }

  if (issues.length > 0) return { ok: false, issues: render(issues) };
  return { ok: true, manifest: normalise(m, urls), issues: [] };
}

function normalise(m: Record<string, unknown>, urls: Map<string, string>): AppManifest {
  const embedded = (m.embedded ?? {}) as { enabled?: boolean; admin_path?: string };
  const bridge = (m.bridge ?? {}) as { capabilities?: BridgeCapability[] };
  const topics = ((m.webhooks ?? {}) as { topics?: string[] }).topics ?? [];
  const extensions = (m.extensions ?? []) as (Omit<ManifestExtension, 'config'> & { config?: Record<string, unknown> })[];
  return {
    schema_version: MANIFEST_SCHEMA_VERSION,
    name: (m.name as string).trim(),
    handle: (m.handle as string).toLowerCase(),
    version: m.version as string,
    description: ((m.description as string | undefined) ?? '').trim(),
    app_url: urls.get('app_url')!,
    redirect_urls: (m.redirect_urls as string[]).map((_, i) => urls.get(`redirect_urls.${i}`)!),
    scopes: normaliseScopes(m.scopes as string[]),
    webhooks: { topics: [...new Set(topics)].sort() },
    privacy_policy_url: urls.get('privacy_policy_url')!,
    support_url: urls.get('support_url') ?? null,
    embedded: { enabled: embedded.enabled ?? true, admin_path: embedded.admin_path ?? '/' },
    bridge: { capabilities: bridge.capabilities ? [...new Set(bridge.capabilities)].sort() : [...DEFAULT_BRIDGE_CAPABILITIES] },
    extensions: extensions.map((e) => ({ kind: e.kind, handle: e.handle.toLowerCase(), name: e.name.trim(), target: e.target, config: e.config ?? {} })),
  };
}

/**
 * `app`: where the platform sends merchants (app_url, redirect URLs): https, or plain http to a
 * loopback host outside staging and production (the webhook target rules, src/outbound).
 * `page`: a public page for merchants (privacy policy, support): https always.
 * Neither may carry credentials or a fragment.
 */
export function urlProblem(config: Pick<Config, 'env'>, raw: string, rule: 'app' | 'page'): { ok: true; href: string } | { ok: false; reason: string } {
  const shape = checkUrlShape(config as Config, raw);
  if (!shape.ok) return { ok: false, reason: rule === 'page' && /^must use https/.test(shape.reason) ? 'must use https' : shape.reason };
  if (rule === 'page' && shape.url.protocol !== 'https:') return { ok: false, reason: 'must use https' };
  return { ok: true, href: shape.url.href };
}

/**
 * What an admin_ui extension's config says about its embed (docs/apps.md, Embedded apps): `url`, its
 * own embed URL (the `app` URL rule), and `bridge_capabilities`, the capabilities it uses.
 */
function adminEmbedConfigIssues(context: ManifestContext, config: Record<string, unknown>, path: string): Issue[] {
  const issues: Issue[] = [];
  if ('url' in config) {
    const problem =
      typeof config.url === 'string' && config.url.length > 0
        ? urlProblem(context.config, config.url, 'app')
        : { ok: false as const, reason: 'must be a URL string' };
    if (!problem.ok) issues.push({ path: `${path}.url`, message: problem.reason });
  }
  if ('bridge_capabilities' in config) {
    const listed = config.bridge_capabilities;
    if (!Array.isArray(listed))
      issues.push({ path: `${path}.bridge_capabilities`, message: `must be a list of bridge capabilities (${BRIDGE_CAPABILITIES.join(', ')})` });
    else {
      listed.forEach((c, j) => {
        if (!(BRIDGE_CAPABILITIES as readonly unknown[]).includes(c))
          issues.push({ path: `${path}.bridge_capabilities.${j}`, message: `must be one of ${BRIDGE_CAPABILITIES.join(', ')}` });
      });
    }
  }
  return issues;
}

/**
 * A checkout_function's config (docs/extensions.md, Checkout Functions: the manifest): `program`,
 * required, JSON Logic the engine will run (its own rules, storability included: a program may
 * nest deeper than other configs), and `settings`, optional, the defaults of what the merchant may
 * change. Nothing else.
 */
function checkoutFunctionConfigIssues(config: Record<string, unknown>, path: string): Issue[] {
  const issues: Issue[] = [];
  for (const key of Object.keys(config))
    if (key !== 'program' && key !== 'settings')
      issues.push({ path: `${path}.${key}`, message: 'is not a known field (a checkout_function config has program and settings)' });
  if (!Object.hasOwn(config, 'program')) issues.push({ path: `${path}.program`, message: 'is required' });
  else issues.push(...programIssues(config.program, `${path}.program`));
  if (Object.hasOwn(config, 'settings')) issues.push(...settingsIssues(config.settings, `${path}.settings`));
  return issues;
}

/** Each kind's targets (docs/apps.md, Extensions). */
function targetProblem(kind: ExtensionKind, target: string): string | null {
  switch (kind) {
    case 'admin_ui':
      return /^admin(\.[a-z0-9_-]+)+$/.test(target) ? null : 'must be an admin target: "admin." and lowercase dotted segments, e.g. "admin.product.details"';
    case 'checkout_ui':
      return /^checkout(\.[a-z0-9_-]+)+$/.test(target)
        ? null
        : 'must be a checkout target: "checkout." and lowercase dotted segments, e.g. "checkout.payment-method.after"';
    case 'checkout_function':
      return (CHECKOUT_FUNCTION_TARGETS as readonly string[]).includes(target)
        ? null
        : `must be one of ${CHECKOUT_FUNCTION_TARGETS.join(', ')} (Checkout Functions only advise)`;
    case 'theme_app_block':
      return (THEME_APP_BLOCK_TARGETS as readonly string[]).includes(target) ? null : `must be one of ${THEME_APP_BLOCK_TARGETS.join(', ')}`;
  }
}

/** `path: message` strings (the root is `manifest`), each once, in the order found. */
function render(issues: Issue[]): string[] {
  return [...new Set(issues.map((i) => `${i.path || 'manifest'}: ${i.message}`))];
}
