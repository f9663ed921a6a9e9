import { isAppBlockType, type RenderableTheme, type TemplateKey } from '../themes/index.js';
import type { SettingField } from '../themes/index.js';
import { resolveReference, type Translate } from './locale.js';
import { ownValue } from '../own-keys.js';

/** A block as both engines render it: its id, type and resolved settings; or an app block (app-blocks.ts). */
export type RenderedBlock = {
  id: string;
  type: string;
  settings: Record<string, unknown>;
  app: boolean;
  /** An app block that names no enabled extension of an installed app in the store: rendered as a comment only (app-blocks.ts). */
  unavailable?: boolean;
};

/** A section of the page, in template order, with its resolved settings and its enabled blocks in `block_order`. */
export type RenderedSection = {
  id: string;
  type: string;
  rendererKey: string;
  acceptsAppBlocks: boolean;
  settings: Record<string, unknown>;
  blocks: RenderedBlock[];
};

/** Each field's own `default`, by id. */
function fieldDefaults(schema: readonly SettingField[]): Record<string, unknown> {
  return Object.fromEntries(schema.filter((f) => f.default !== undefined).map((f) => [f.id, f.default]));
}

/** Layers applied in order (later wins), then `t:` references resolved in the page's locale. */
function resolveSettings(t: Translate, ...layers: (Record<string, unknown> | undefined)[]): Record<string, unknown> {
  const merged = new Map<string, unknown>();
  for (const layer of layers) for (const [key, value] of Object.entries(layer ?? {})) if (value !== undefined) merged.set(key, value);
  return Object.fromEntries([...merged].map(([key, value]) => [key, resolveReference(value, t)]));
}

/** The theme's global `settings`: each field's default, then the store's `settings_data.current`. */
export function themeSettings(theme: RenderableTheme, t: Translate): Record<string, unknown> {
  const fields = theme.bundle.config.settings_schema.settings.flatMap((g) => g.settings);
  return resolveSettings(t, fieldDefaults(fields), theme.settingsData.current);
}

/**
 * The template's sections as they render: in `order`, disabled ones and ones without a definition
 * skipped; settings from the field defaults, the section's `defaults`, its first preset, then the
 * template's values (the store's published copy, or a preview's draft, is already in
 * `theme.templates`); blocks in `block_order`, disabled ones skipped, likewise resolved.
 */
export function templateSections(theme: RenderableTheme, template: TemplateKey, t: Translate): RenderedSection[] | null {
  const data = theme.templates[template];
  if (!data) return null;
  const out: RenderedSection[] = [];
  for (const id of data.order) {
    const section = ownValue(data.sections, id);
    const def = section ? ownValue(theme.bundle.sections, section.type) : undefined;
    if (!section || !def || section.disabled) continue;
    const blocks: RenderedBlock[] = [];
    for (const blockId of section.block_order) {
      const block = ownValue(section.blocks, blockId);
      if (!block || block.disabled) continue;
      if (isAppBlockType(block.type)) {
        if (def.accepts_app_blocks) blocks.push({ id: blockId, type: block.type, settings: resolveSettings(t, block.settings), app: true });
        continue;
      }
      const blockDef = ownValue(theme.bundle.blocks, block.type);
      if (!blockDef) continue;
      blocks.push({
        id: blockId,
        type: block.type,
        settings: resolveSettings(t, fieldDefaults(blockDef.settings_schema), blockDef.defaults, block.settings),
        app: false,
      });
    }
    out.push({
      id,
      type: section.type,
      rendererKey: def.renderer_key,
      acceptsAppBlocks: def.accepts_app_blocks,
      settings: resolveSettings(t, fieldDefaults(def.settings_schema), def.defaults, def.presets[0]?.settings, section.settings),
      blocks,
    });
  }
  return out;
}
