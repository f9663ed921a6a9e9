import { BUNDLE_SCHEMA_VERSION, PRICING_TYPES, RENDERER_ENGINES, RENDERER_VERSION, SETTING_TYPES, TEMPLATE_KEYS } from './types.js';

/**
 * The bundle's structure as JSON Schema (draft-07), published at GET /v1/themes/bundle-schema and
 * compiled by the json_schema rule (rules/json-schema.ts). It says what ajv can: shapes, types,
 * enums, patterns, counts. The cross-references and each setting type's own constraints are the
 * other rules (rules/, one per file; docs/themes.md, Validation rules). `x-message` is our
 * annotation: the words for a pattern.
 */

/** The whole bundle, as JSON. Checked before the schema walks it. */
export const MAX_BUNDLE_BYTES = 5 * 1024 * 1024;
/** Objects and arrays nested inside one another, the bundle itself being level 1. */
export const MAX_BUNDLE_DEPTH = 16;
/** Every value in the bundle (objects, arrays, strings, numbers...). */
export const MAX_BUNDLE_NODES = 100_000;
export const MAX_SECTION_DEFINITIONS = 100;
export const MAX_BLOCK_DEFINITIONS = 100;
/** Sections in one template (Shopify's limit for a JSON template). */
export const MAX_TEMPLATE_SECTIONS = 25;
/** Blocks in one section of a template (Shopify's `max_blocks` ceiling). */
export const MAX_SECTION_BLOCKS = 50;
export const MAX_SETTING_GROUPS = 30;
/** Settings in one group, or in one section's or block's settings_schema. */
export const MAX_SETTINGS = 100;
export const MAX_OPTIONS = 100;
export const MAX_PRESETS = 20;
/** Values in one settings object (settings_data, a preset, defaults, an instance's settings). */
export const MAX_SETTING_VALUES = 200;
export const MAX_LOCALES = 50;
/** Objects nested inside one locale dictionary. */
export const MAX_LOCALE_DEPTH = 6;
export const MAX_LOCALE_STRING = 5000;
export const MAX_ASSETS = 250;
/** One inline asset's content, in UTF-8 bytes. */
export const MAX_INLINE_ASSET_BYTES = 512 * 1024;
/** One asset's declared size (an uploaded media file may be larger than inline content). */
export const MAX_ASSET_BYTES = 20 * 1024 * 1024;
/** All assets' declared sizes together (Shopify's theme size limit). */
export const MAX_TOTAL_ASSET_BYTES = 50 * 1024 * 1024;

/** Defaults of package fields (docs/themes.md, Defaults). */
export const PACKAGE_DEFAULTS = {
  author_name: 'Anonymous',
  site_types: ['general'],
  status: 'draft',
  pricing_type: 'free',
  price: 0,
  currency: 'USD',
  version_number: 1,
  release_status: 'published',
  compatibility_range: '^1.0.0',
} as const;
/** What the author may declare; the platform sets the stored package status itself (spec 3). */
export const PACKAGE_STATUSES = ['draft', 'active'] as const;
/** `published`: goes live when approved; `draft`: kept back after approval until the author publishes it. */
export const RELEASE_STATUSES = ['published', 'draft'] as const;

/** Folders a theme file may live in (Shopify's theme layout, and `blocks/` of the spec's layout). */
export const ASSET_FOLDERS = ['assets', 'blocks', 'config', 'layout', 'locales', 'sections', 'snippets', 'templates'] as const;
/** Text content types an asset may have, each with its file extensions: these may be sent as UTF-8 `content`. */
const TEXT_ASSETS: Record<string, readonly string[]> = {
  'text/css': ['css'],
  'text/javascript': ['js', 'mjs'],
  'application/json': ['json'],
  'text/x-liquid': ['liquid'],
  'text/plain': ['txt'],
  'image/svg+xml': ['svg'],
};
/** Binary content types an asset may have, each with its file extensions: sent base64-encoded only. */
const BINARY_ASSETS: Record<string, readonly string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'image/avif': ['avif'],
  'font/woff': ['woff'],
  'font/woff2': ['woff2'],
};
/** Content types an asset may have, each with the file extensions it goes with; `inline`: may be sent as UTF-8 `content`. */
export const ASSET_CONTENT_TYPES: Record<string, { extensions: readonly string[]; inline: boolean }> = Object.fromEntries([
  ...Object.entries(TEXT_ASSETS).map(([type, extensions]) => [type, { extensions, inline: true }]),
  ...Object.entries(BINARY_ASSETS).map(([type, extensions]) => [type, { extensions, inline: false }]),
]);

// Semantic Versioning 2.0.0's own expression (semver.org), as src/apps/manifest/validate.ts uses it.
export const SEMVER_PATTERN =
  '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][a-zA-Z0-9-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][a-zA-Z0-9-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$';
const KEBAB = '^[a-z0-9]+(-[a-z0-9]+)*$';
/** Section and block types, renderer keys: a file name (`main-product`, `featured_collection`). */
export const TYPE_PATTERN = '^[a-z][a-z0-9_-]{0,63}$';
/**
 * App block types in a template (Shopify's convention): `@app`, or `@app/<app handle>/<block>`,
 * each segment lowercase kebab-case of at most 64 characters. They have no block definition.
 */
/** An app block's type (docs/themes.md, App blocks): `@app` or `@app/<app handle>/<block>`. */
export const APP_BLOCK_TYPE_PATTERN = '^@app(/(?=[a-z0-9-]{1,64}/)[a-z0-9]+(-[a-z0-9]+)*/(?=[a-z0-9-]{1,64}$)[a-z0-9]+(-[a-z0-9]+)*)?$';
/** The longest template block type: a definition's (64) or an app block's (`@app/` + 64 + `/` + 64). */
const MAX_TEMPLATE_BLOCK_TYPE = 134;
/** Setting ids: snake_case, as Shopify's. */
export const SETTING_ID_PATTERN = '^[a-z][a-z0-9_]{0,63}$';
/** Section and block ids inside a template (`main`, `hero-1`, `1651234abc`). */
export const INSTANCE_ID_PATTERN = '^(?!__proto__$)[A-Za-z0-9_-]{1,64}$';
export const LOCALE_PATTERN = '^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$';
const PRESET_NAME_PATTERN = '^(?![$])[^.\\u0000]{1,100}$';
export const ASSET_PATH_PATTERN = `^(${ASSET_FOLDERS.join('|')})/([A-Za-z0-9_-][A-Za-z0-9._-]*/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$`;
export const MEDIA_ID_PATTERN = '^[0-9a-f]{24}$';

const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max, pattern: '\\S', 'x-message': 'must not be blank' });
const typeName = { type: 'string', pattern: TYPE_PATTERN, 'x-message': 'must be a lowercase name: a letter, then letters, digits, "_" or "-" (at most 64)' };
const instanceIds = { pattern: INSTANCE_ID_PATTERN, 'x-message': 'is not a valid id: letters, digits, "_" or "-" (at most 64)' };
/** Free-form values checked against their fields by the setting_values rule (rules/setting-values.ts) (and its keys by unstorableJson). */
const settingValues = { type: 'object', maxProperties: MAX_SETTING_VALUES };

const settingField = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'type', 'label'],
  properties: {
    id: {
      type: 'string',
      pattern: SETTING_ID_PATTERN,
      'x-message': 'must be snake_case: a lowercase letter, then lowercase letters, digits or "_" (at most 64)',
    },
    type: { enum: [...SETTING_TYPES] },
    label: text(200),
    info: { type: 'string', maxLength: 1000 },
    default: { type: ['string', 'number', 'boolean'] },
    options: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_OPTIONS,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['value', 'label'],
        properties: { value: { type: 'string', minLength: 1, maxLength: 200 }, label: text(200) },
      },
    },
    min: { type: 'number' },
    max: { type: 'number' },
    step: { type: 'number', exclusiveMinimum: 0 },
    unit: { type: 'string', minLength: 1, maxLength: 10 },
    placeholder: { type: 'string', maxLength: 200 },
  },
  allOf: [
    { if: { properties: { type: { const: 'range' } }, required: ['type'] }, then: { required: ['min', 'max', 'step', 'default'] } },
    { if: { properties: { type: { enum: ['select', 'radio'] } }, required: ['type'] }, then: { required: ['options'] } },
  ],
};
const settingsSchema = { type: 'array', maxItems: MAX_SETTINGS, items: settingField };

const templateBlock = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: { type: { type: 'string', minLength: 1, maxLength: MAX_TEMPLATE_BLOCK_TYPE }, settings: settingValues, disabled: { type: 'boolean' } },
};
const templateSection = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: { type: 'string', minLength: 1, maxLength: 64 },
    settings: settingValues,
    blocks: { type: 'object', maxProperties: MAX_SECTION_BLOCKS, propertyNames: instanceIds, additionalProperties: templateBlock },
    block_order: { type: 'array', maxItems: MAX_SECTION_BLOCKS, items: { type: 'string', maxLength: 64 } },
    disabled: { type: 'boolean' },
  },
};
const template = {
  type: 'object',
  additionalProperties: false,
  required: ['sections', 'order'],
  properties: {
    sections: { type: 'object', maxProperties: MAX_TEMPLATE_SECTIONS, propertyNames: instanceIds, additionalProperties: templateSection },
    order: { type: 'array', maxItems: MAX_TEMPLATE_SECTIONS, items: { type: 'string', maxLength: 64 } },
  },
};

/** A section's or a block's definition: its `type` and `name`, then what the kind adds. */
const definition = (properties: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  required: ['type', 'name'],
  properties: { type: { type: 'string', minLength: 1, maxLength: 64 }, name: text(100), ...properties },
});

const sectionDefinition = definition({
  renderer_key: typeName,
  settings_schema: settingsSchema,
  defaults: settingValues,
  block_types: { type: 'array', maxItems: MAX_BLOCK_DEFINITIONS, items: { type: 'string', minLength: 1, maxLength: 64 } },
  accepts_app_blocks: { type: 'boolean' },
  presets: {
    type: 'array',
    maxItems: MAX_PRESETS,
    items: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: text(100), settings: settingValues } },
  },
  enabled_on: { type: 'array', minItems: 1, maxItems: TEMPLATE_KEYS.length, items: { enum: [...TEMPLATE_KEYS] } },
});
const blockDefinition = definition({
  description: { type: 'string', maxLength: 500 },
  settings_schema: settingsSchema,
  defaults: settingValues,
});

const asset = {
  type: 'object',
  additionalProperties: false,
  required: ['path', 'content_type', 'size', 'sha256'],
  properties: {
    path: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: ASSET_PATH_PATTERN,
      'x-message': `must be a relative path in one of the folders ${ASSET_FOLDERS.join(', ')}: segments of letters, digits, ".", "_" or "-", none starting with "." (no leading "/", no "." or ".." segments)`,
    },
    content_type: { enum: Object.keys(ASSET_CONTENT_TYPES) },
    size: { type: 'integer', minimum: 0, maximum: MAX_ASSET_BYTES },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', 'x-message': 'must be the SHA-256 of the content as 64 lowercase hex digits' },
    content: { type: 'string', maxLength: MAX_INLINE_ASSET_BYTES },
    media_id: { type: 'string', pattern: MEDIA_ID_PATTERN, 'x-message': 'must be a media id (24 lowercase hex digits) from POST /v1/media' },
  },
};

export const BUNDLE_JSON_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: `urn:emporium:theme-bundle:${BUNDLE_SCHEMA_VERSION}`,
  title: `Emporium theme bundle (${BUNDLE_SCHEMA_VERSION})`,
  description: 'Structure only: the cross-reference rules and each setting type\'s constraints are in docs/themes.md, "Validation rules".',
  type: 'object',
  additionalProperties: false,
  required: ['schema_version', 'package', 'config', 'templates', 'sections', 'blocks', 'locales', 'renderer'],
  properties: {
    // Editors associate a document with its schema this way; normalisation drops it.
    $schema: { type: 'string', maxLength: 2048 },
    schema_version: { const: BUNDLE_SCHEMA_VERSION },
    package: {
      type: 'object',
      additionalProperties: false,
      required: ['slug', 'name', 'version'],
      properties: {
        slug: {
          type: 'string',
          minLength: 3,
          maxLength: 60,
          pattern: KEBAB,
          'x-message': 'must be lowercase kebab-case: lowercase letters and digits in words joined by single hyphens, e.g. "aurora"',
        },
        name: text(80),
        author_name: text(100),
        site_types: {
          type: 'array',
          minItems: 1,
          maxItems: 10,
          uniqueItems: true,
          items: { type: 'string', maxLength: 40, pattern: KEBAB, 'x-message': 'must be lowercase kebab-case, e.g. "fashion" or "food-and-drink"' },
        },
        status: { enum: [...PACKAGE_STATUSES] },
        pricing_type: { enum: [...PRICING_TYPES] },
        price: { type: 'number', minimum: 0, maximum: 100_000 },
        currency: { type: 'string', pattern: '^[A-Z]{3}$', 'x-message': 'must be an ISO 4217 currency code in capitals, e.g. "USD"' },
        version: { type: 'string', maxLength: 64, pattern: SEMVER_PATTERN, 'x-message': 'must be a semantic version such as 1.0.0 or 2.1.0-beta.1' },
        version_number: { type: 'integer', minimum: 1, maximum: 1_000_000 },
        release_status: { enum: [...RELEASE_STATUSES] },
        compatibility_range: { type: 'string', minLength: 1, maxLength: 100 },
      },
    },
    config: {
      type: 'object',
      additionalProperties: false,
      required: ['settings_schema'],
      properties: {
        settings_schema: {
          type: 'object',
          additionalProperties: false,
          required: ['settings'],
          properties: {
            schema_version: { const: BUNDLE_SCHEMA_VERSION },
            settings: {
              type: 'array',
              maxItems: MAX_SETTING_GROUPS,
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['label', 'settings'],
                properties: { label: text(100), description: { type: 'string', maxLength: 1000 }, settings: settingsSchema },
              },
            },
          },
        },
        settings_data: {
          type: 'object',
          additionalProperties: false,
          properties: {
            current: settingValues,
            presets: {
              type: 'object',
              maxProperties: MAX_PRESETS,
              propertyNames: {
                pattern: PRESET_NAME_PATTERN,
                'x-message': 'is not a valid preset name: 1 to 100 characters, not starting with "$", without "." or NUL',
              },
              additionalProperties: settingValues,
            },
          },
        },
      },
    },
    templates: {
      type: 'object',
      required: ['home'],
      propertyNames: { enum: [...TEMPLATE_KEYS], 'x-message': `is not a template key: the keys are ${TEMPLATE_KEYS.join(', ')}` },
      additionalProperties: template,
    },
    sections: {
      type: 'object',
      maxProperties: MAX_SECTION_DEFINITIONS,
      propertyNames: { pattern: TYPE_PATTERN, 'x-message': 'is not a valid section type: a lowercase letter, then letters, digits, "_" or "-" (at most 64)' },
      additionalProperties: sectionDefinition,
    },
    blocks: {
      type: 'object',
      maxProperties: MAX_BLOCK_DEFINITIONS,
      propertyNames: { pattern: TYPE_PATTERN, 'x-message': 'is not a valid block type: a lowercase letter, then letters, digits, "_" or "-" (at most 64)' },
      additionalProperties: blockDefinition,
    },
    locales: {
      type: 'object',
      required: ['en'],
      maxProperties: MAX_LOCALES,
      propertyNames: { pattern: LOCALE_PATTERN, 'x-message': 'is not a locale code such as en, fr or pt-BR' },
      additionalProperties: { type: 'object' },
    },
    renderer: {
      type: 'object',
      additionalProperties: false,
      required: ['engine', 'renderer_version'],
      properties: {
        engine: { enum: [...RENDERER_ENGINES] },
        renderer_version: { const: RENDERER_VERSION },
        liquid_ready: { type: 'boolean' },
        assets: { type: 'array', maxItems: MAX_ASSETS, items: asset },
      },
    },
  },
} as const;

const APP_BLOCK_TYPE = new RegExp(APP_BLOCK_TYPE_PATTERN);
/** Whether a template block's type is an app block's: the one rule the validator and the renderer share. */
export const isAppBlockType = (type: string) => APP_BLOCK_TYPE.test(type);
