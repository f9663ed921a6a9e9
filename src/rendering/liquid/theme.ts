import type { SettingField, ThemeBundle } from '../../themes/index.js';

/**
 * What a render thread keeps of a theme version: its Liquid files and the parts of its bundle the
 * page objects read (settings schemas, locales). Plain data, sent to a thread once.
 */
export type LiquidTheme = {
  config: { settings_schema: ThemeBundle['config']['settings_schema'] };
  sections: Record<string, { renderer_key: string; settings_schema: SettingField[] }>;
  blocks: Record<string, { settings_schema: SettingField[] }>;
  locales: ThemeBundle['locales'];
  /** The `.liquid` files with inline content: [path, source]. */
  files: [string, string][];
};

/** The slim copy of a bundle a thread needs (the rest, CSS and JS among it, stays in the web process). */
export function liquidThemeOf(bundle: ThemeBundle): LiquidTheme {
  return {
    config: { settings_schema: bundle.config.settings_schema },
    sections: Object.fromEntries(
      Object.entries(bundle.sections).map(([type, s]) => [type, { renderer_key: s.renderer_key, settings_schema: s.settings_schema }]),
    ),
    blocks: Object.fromEntries(Object.entries(bundle.blocks).map(([type, b]) => [type, { settings_schema: b.settings_schema }])),
    locales: bundle.locales,
    files: bundle.renderer.assets.filter((a) => a.path.endsWith('.liquid') && typeof a.content === 'string').map((a) => [a.path, a.content!]),
  };
}
