import { ownValue } from '../../own-keys.js';
import type { SettingField } from '../../themes/index.js';
import { hexColour } from '../theme-look.js';

/** CSS units a `range`/`number` setting's `unit` may name to be printed with its value (`1200px`); any other unit prints the bare number. */
const CSS_UNITS = new Set(['px', 'rem', 'em', '%', 'vw', 'vh', 'vmin', 'vmax', 'ch', 'ex', 'ms', 's', 'deg', 'fr']);

/**
 * A setting as a CSS custom property's value (docs/rendering.md, "Settings as CSS custom
 * properties"): a `color` as it is (a hex colour, else nothing); a `range` or `number` as its
 * number, followed by the field's `unit` when that is a CSS unit; nothing for other types.
 */
export function cssSettingValue(field: Pick<SettingField, 'type' | 'unit'>, value: unknown): string | null {
  if (field.type === 'color') return hexColour(value);
  if (field.type === 'range' || field.type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return null;
    return `${value}${field.unit && CSS_UNITS.has(field.unit) ? field.unit : ''}`;
  }
  return null;
}

export const cssName = (id: string) => (/^[A-Za-z][A-Za-z0-9_-]*$/.test(id) ? `--${id.replace(/_/g, '-')}` : null);

/** `--id: value;` for each field of `schema` that has a CSS value in `settings`. */
export function cssVariables(schema: readonly SettingField[], settings: Record<string, unknown>): string[] {
  return schema.flatMap((f) => {
    const name = cssName(f.id);
    const value = cssSettingValue(f, ownValue(settings, f.id));
    return name && value !== null ? [`${name}: ${value};`] : [];
  });
}
