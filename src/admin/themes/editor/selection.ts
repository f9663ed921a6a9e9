import { isAppBlockType, type SettingField } from '../../../themes/index.js';
import { own, shownFields, THEME_SETTINGS, type Editor } from './load.js';
import type { ShownField } from './fields.js';

/**
 * What the settings panel edits for the selection: the theme settings (their groups), a section's
 * settings or a block's (an app block's are the fields the renderer draws), with where the drafts
 * API reports their issues (`prefix`), the values stored and the object's name for the page.
 */
export type Edited = {
  title: string;
  groups: { label: string | null; fields: ShownField[] }[];
  settings: Record<string, unknown>;
  prefix: string;
};

/** An app block's settings (docs/themes.md, App blocks): what the merchant may set over the extension's defaults. */
const APP_BLOCK_FIELDS: SettingField[] = [
  { id: 'heading', type: 'text', label: 'Heading' },
  { id: 'body', type: 'textarea', label: 'Text' },
  { id: 'cta_label', type: 'text', label: 'Button label' },
  { id: 'cta_href', type: 'url', label: 'Button link' },
];

/** A section's name in the merchant's language (its definition's, else its type). */
export const sectionName = (ed: Editor, type: string) => {
  const def = Object.hasOwn(ed.e.bundle.sections, type) ? ed.e.bundle.sections[type] : undefined;
  return def ? ed.resolve(def.name) : type;
};

export const blockName = (ed: Editor, type: string) => {
  if (isAppBlockType(type)) return `App block ${type.slice('@app/'.length)}`;
  const def = Object.hasOwn(ed.e.bundle.blocks, type) ? ed.e.bundle.blocks[type] : undefined;
  return def ? ed.resolve(def.name) : type;
};

/** The settings the selection edits, or null when nothing is selected. */
export function editedOf(ed: Editor): Edited | null {
  const { template, section, block } = ed.at;
  if (section === THEME_SETTINGS) {
    return {
      title: 'Theme settings',
      groups: ed.e.bundle.config.settings_schema.settings.map((g) => ({ label: ed.resolve(g.label), fields: shownFields(ed, g.settings) })),
      settings: ed.settings.content.current,
      prefix: 'config.settings_data.current.',
    };
  }
  if (section === null) return null;
  const s = own(ed.template.content.sections, section);
  if (!s) return null;
  const sectionPath = `templates.${template}.sections.${section}`;
  if (block !== null) {
    const b = own(s.blocks, block);
    if (!b) return null;
    const def = Object.hasOwn(ed.e.bundle.blocks, b.type) ? ed.e.bundle.blocks[b.type] : undefined;
    const fields = isAppBlockType(b.type) ? APP_BLOCK_FIELDS : (def?.settings_schema ?? []);
    return {
      title: `${blockName(ed, b.type)} in ${sectionName(ed, s.type)}`,
      groups: [{ label: null, fields: shownFields(ed, fields) }],
      settings: b.settings,
      prefix: `${sectionPath}.blocks.${block}.settings.`,
    };
  }
  const def = Object.hasOwn(ed.e.bundle.sections, s.type) ? ed.e.bundle.sections[s.type] : undefined;
  return {
    title: sectionName(ed, s.type),
    groups: [{ label: null, fields: shownFields(ed, def?.settings_schema ?? []) }],
    settings: s.settings,
    prefix: `${sectionPath}.settings.`,
  };
}
