/**
 * The theme bundle as the platform keeps it: validated and normalised (validate.ts, rules/), schema
 * version `2026-05-json-contract` (spec 2.5, 9). docs/themes.md shows a full example.
 */
export const BUNDLE_SCHEMA_VERSION = '2026-05-json-contract';
export const RENDERER_VERSION = '1.0.0';
export const TEMPLATE_KEYS = ['home', 'product', 'collection', 'page', 'cart', 'blog'] as const;
export type TemplateKey = (typeof TEMPLATE_KEYS)[number];
export const SETTING_TYPES = ['text', 'textarea', 'richtext', 'color', 'image', 'select', 'toggle', 'range', 'number', 'url', 'radio'] as const;
export type SettingType = (typeof SETTING_TYPES)[number];
export const RENDERER_ENGINES = ['json-contract', 'liquid'] as const;
export type RendererEngine = (typeof RENDERER_ENGINES)[number];
export const PRICING_TYPES = ['free', 'paid'] as const;
export type PricingType = (typeof PRICING_TYPES)[number];

/** One setting's definition (spec 2.5 field types; each type's own constraints in rules/setting-fields.ts). */
export type SettingField = {
  id: string;
  type: SettingType;
  label: string;
  info?: string;
  default?: unknown;
  /** select, radio */
  options?: { value: string; label: string }[];
  /** range, number */
  min?: number;
  max?: number;
  step?: number;
  unit?: string;
  placeholder?: string;
};

export type SettingsGroup = { label: string; description: string; settings: SettingField[] };

export type PackageMeta = {
  slug: string;
  name: string;
  author_name: string;
  site_types: string[];
  status: string;
  pricing_type: PricingType;
  /** A decimal amount in `currency` (spec 2.5: "price (number)"); 0 for a free theme. */
  price: number;
  currency: string;
  version: string;
  version_number: number;
  release_status: string;
  compatibility_range: string;
};

export type TemplateBlock = { type: string; settings: Record<string, unknown>; disabled: boolean };
export type TemplateSection = {
  type: string;
  settings: Record<string, unknown>;
  blocks: Record<string, TemplateBlock>;
  block_order: string[];
  disabled: boolean;
};
export type Template = { sections: Record<string, TemplateSection>; order: string[] };

export type SectionDef = {
  type: string;
  name: string;
  renderer_key: string;
  settings_schema: SettingField[];
  defaults: Record<string, unknown>;
  block_types: string[];
  accepts_app_blocks: boolean;
  presets: { name: string; settings: Record<string, unknown> }[];
  enabled_on: TemplateKey[];
};

export type BlockDef = { type: string; name: string; description: string; settings_schema: SettingField[]; defaults: Record<string, unknown> };

/**
 * One file of the theme (docs/themes.md, Assets): its path, type, size and SHA-256, and either its
 * content inline (UTF-8 text: CSS, JS, Liquid, SVG) or an uploaded media id.
 */
export type AssetEntry = { path: string; content_type: string; size: number; sha256: string; content?: string; media_id?: string };

export type ThemeBundle = {
  schema_version: typeof BUNDLE_SCHEMA_VERSION;
  package: PackageMeta;
  config: {
    settings_schema: { schema_version: string; settings: SettingsGroup[] };
    settings_data: { current: Record<string, unknown>; presets: Record<string, Record<string, unknown>> };
  };
  templates: Partial<Record<TemplateKey, Template>>;
  sections: Record<string, SectionDef>;
  blocks: Record<string, BlockDef>;
  locales: Record<string, Record<string, unknown>>;
  renderer: { engine: RendererEngine; renderer_version: typeof RENDERER_VERSION; liquid_ready: boolean; assets: AssetEntry[] };
};

/** What validation answers (spec 7): the normalised bundle when ok, and every issue found, path-prefixed. */
export type BundleValidation = { ok: boolean; bundle?: ThemeBundle; issues: string[]; warnings: string[] };
