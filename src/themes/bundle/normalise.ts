import { createHash } from 'node:crypto';
import { layoutArea, type Obj } from './json.js';
import { PACKAGE_DEFAULTS } from './schema.js';
import {
  BUNDLE_SCHEMA_VERSION,
  RENDERER_VERSION,
  TEMPLATE_KEYS,
  type BlockDef,
  type SectionDef,
  type SettingField,
  type SettingType,
  type Template,
  type TemplateKey,
  type ThemeBundle,
} from './types.js';

/** Normalisation of a valid bundle: every field listed, defaults filled (docs/themes.md, Defaults). */
export function normalise(b: Obj): ThemeBundle {
  const out = normaliseAreas(b);
  // The layout files (docs/themes.md, Liquid themes) are stored as their normalised areas, so a
  // normalised bundle agrees with itself and validates again unchanged (the review re-validates it).
  for (const asset of out.renderer.assets) {
    if (asset.content === undefined || !asset.path.endsWith('.json')) continue;
    const area = layoutArea(asset.path, out as unknown as Obj, out.config as unknown as Obj);
    if (!area || area.value === undefined) continue;
    asset.content = JSON.stringify(area.value);
    const bytes = Buffer.from(asset.content, 'utf8');
    asset.size = bytes.length;
    asset.sha256 = createHash('sha256').update(bytes).digest('hex');
  }
  return out;
}

function normaliseAreas(b: Obj): ThemeBundle {
  const p = b.package as Obj;
  const config = b.config as Obj;
  const schema = config.settings_schema as Obj;
  const data = (config.settings_data ?? {}) as Obj;
  const renderer = b.renderer as Obj;
  const engine = renderer.engine as ThemeBundle['renderer']['engine'];
  return {
    schema_version: BUNDLE_SCHEMA_VERSION,
    package: {
      slug: p.slug as string,
      name: p.name as string,
      author_name: (p.author_name as string | undefined) ?? PACKAGE_DEFAULTS.author_name,
      site_types: (p.site_types as string[] | undefined) ?? [...PACKAGE_DEFAULTS.site_types],
      status: (p.status as string | undefined) ?? PACKAGE_DEFAULTS.status,
      pricing_type: (p.pricing_type as ThemeBundle['package']['pricing_type'] | undefined) ?? PACKAGE_DEFAULTS.pricing_type,
      price: (p.price as number | undefined) ?? PACKAGE_DEFAULTS.price,
      currency: (p.currency as string | undefined) ?? PACKAGE_DEFAULTS.currency,
      version: p.version as string,
      version_number: (p.version_number as number | undefined) ?? PACKAGE_DEFAULTS.version_number,
      release_status: (p.release_status as string | undefined) ?? PACKAGE_DEFAULTS.release_status,
      compatibility_range: (p.compatibility_range as string | undefined) ?? PACKAGE_DEFAULTS.compatibility_range,
    },
    config: {
      settings_schema: {
        schema_version: (schema.schema_version as string | undefined) ?? BUNDLE_SCHEMA_VERSION,
        settings: (schema.settings as Obj[]).map((g) => ({
          label: g.label as string,
          description: (g.description as string | undefined) ?? '',
          settings: (g.settings as Obj[]).map(normaliseField),
        })),
      },
      settings_data: { current: (data.current as Obj | undefined) ?? {}, presets: (data.presets as Record<string, Obj> | undefined) ?? {} },
    },
    templates: Object.fromEntries(Object.entries(b.templates as Obj).map(([key, t]) => [key, normaliseTemplate(t as Obj)])) as ThemeBundle['templates'],
    sections: Object.fromEntries(Object.entries(b.sections as Obj).map(([key, s]) => [key, normaliseSection(s as Obj)])),
    blocks: Object.fromEntries(Object.entries(b.blocks as Obj).map(([key, s]) => [key, normaliseBlock(s as Obj)])),
    locales: b.locales as ThemeBundle['locales'],
    renderer: {
      engine,
      renderer_version: RENDERER_VERSION,
      liquid_ready: (renderer.liquid_ready as boolean | undefined) ?? engine === 'liquid',
      assets: ((renderer.assets ?? []) as Obj[]).map((a) => ({
        path: a.path as string,
        content_type: a.content_type as string,
        size: a.size as number,
        sha256: a.sha256 as string,
        ...(a.content !== undefined ? { content: a.content as string } : { media_id: a.media_id as string }),
      })),
    },
  };
}

/** A field as given; select and radio default to their first option, toggle to false. */
function normaliseField(f: Obj): SettingField {
  const type = f.type as SettingType;
  const options = f.options as { value: string; label: string }[] | undefined;
  const fallback = type === 'toggle' ? false : (type === 'select' || type === 'radio') && options ? options[0]?.value : undefined;
  const field: SettingField = { id: f.id as string, type, label: f.label as string };
  const optional = ['info', 'options', 'min', 'max', 'step', 'unit', 'placeholder'] as const;
  for (const key of optional) if (f[key] !== undefined) (field as Record<string, unknown>)[key] = f[key];
  const value = f.default ?? fallback;
  if (value !== undefined) field.default = value;
  return field;
}

function normaliseTemplate(t: Obj): Template {
  const sections = Object.entries(t.sections as Obj).map(([id, raw]) => {
    const s = raw as Obj;
    const blocks = (s.blocks ?? {}) as Obj;
    return [
      id,
      {
        type: s.type as string,
        settings: (s.settings as Obj | undefined) ?? {},
        blocks: Object.fromEntries(
          Object.entries(blocks).map(([blockId, block]) => {
            const bl = block as Obj;
            return [
              blockId,
              { type: bl.type as string, settings: (bl.settings as Obj | undefined) ?? {}, disabled: (bl.disabled as boolean | undefined) ?? false },
            ];
          }),
        ),
        block_order: (s.block_order as string[] | undefined) ?? Object.keys(blocks),
        disabled: (s.disabled as boolean | undefined) ?? false,
      },
    ] as const;
  });
  return { sections: Object.fromEntries(sections), order: t.order as string[] };
}

function normaliseSection(s: Obj): SectionDef {
  return {
    type: s.type as string,
    name: s.name as string,
    renderer_key: (s.renderer_key as string | undefined) ?? (s.type as string),
    settings_schema: ((s.settings_schema ?? []) as Obj[]).map(normaliseField),
    defaults: (s.defaults as Obj | undefined) ?? {},
    block_types: (s.block_types as string[] | undefined) ?? [],
    accepts_app_blocks: (s.accepts_app_blocks as boolean | undefined) ?? false,
    presets: ((s.presets ?? []) as Obj[]).map((p) => ({ name: p.name as string, settings: (p.settings as Obj | undefined) ?? {} })),
    enabled_on: (s.enabled_on as TemplateKey[] | undefined) ?? [...TEMPLATE_KEYS],
  };
}

function normaliseBlock(s: Obj): BlockDef {
  return {
    type: s.type as string,
    name: s.name as string,
    description: (s.description as string | undefined) ?? '',
    settings_schema: ((s.settings_schema ?? []) as Obj[]).map(normaliseField),
    defaults: (s.defaults as Obj | undefined) ?? {},
  };
}
