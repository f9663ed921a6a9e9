import type { Template, TemplateSection } from '../../../themes/index.js';

/**
 * The changes of a template's structure the editor's buttons make (docs/admin.md, The theme
 * editor): add, remove, move and hide sections and their blocks. Each answers a new template (the
 * one given is never changed) or null when what it names is not in the template (a stale page);
 * the whole template is then saved as its draft and checked by the drafts API's rules.
 */

export const SECTION_OPS = ['up', 'down', 'hide', 'show', 'remove'] as const;
export type SectionOp = (typeof SECTION_OPS)[number];

/** A free id for a new section or block of `type`: `<type>-<n>`, kept to the ids the bundle takes (letters, digits, `_`, `-`, 64 at most). */
export function freeId(type: string, taken: Record<string, unknown>): string {
  const base = type
    .replace(/^@app\//, 'app-')
    .replace(/[^A-Za-z0-9_-]/g, '-')
    .slice(0, 56);
  for (let n = 1; ; n++) if (!Object.hasOwn(taken, `${base}-${n}`)) return `${base}-${n}`;
}

/** A new section at the end of the template, with a preset's settings when one is chosen. */
export function addSection(t: Template, type: string, settings: Record<string, unknown>): { template: Template; id: string } {
  const next = structuredClone(t);
  const id = freeId(type, next.sections);
  Object.assign(next.sections, { [id]: { type, settings: structuredClone(settings), blocks: {}, block_order: [], disabled: false } });
  next.order.push(id);
  return { template: next, id };
}

/** Move, hide, show or remove one entry of an ordered list of ids with their objects (a template's sections, a section's blocks). */
function change<T extends { disabled: boolean }>(items: Record<string, T>, order: string[], id: string, op: SectionOp): boolean {
  if (!Object.hasOwn(items, id)) return false;
  const at = order.indexOf(id);
  if (op === 'remove') {
    delete items[id];
    if (at >= 0) order.splice(at, 1);
  } else if (op === 'hide' || op === 'show') items[id]!.disabled = op === 'hide';
  else {
    const to = at + (op === 'up' ? -1 : 1);
    if (at >= 0 && to >= 0 && to < order.length) [order[at], order[to]] = [order[to]!, order[at]!];
  }
  return true;
}

export function changeSection(t: Template, id: string, op: SectionOp): Template | null {
  const next = structuredClone(t);
  return change(next.sections, next.order, id, op) ? next : null;
}

/** A section of the template changed by `edit` (null: no such section). */
function inSection(t: Template, sectionId: string, edit: (s: TemplateSection) => boolean): Template | null {
  const next = structuredClone(t);
  const section = Object.hasOwn(next.sections, sectionId) ? next.sections[sectionId]! : null;
  return section && edit(section) ? next : null;
}

export const changeBlock = (t: Template, sectionId: string, blockId: string, op: SectionOp) =>
  inSection(t, sectionId, (s) => change(s.blocks, s.block_order, blockId, op));

/** A new block at the end of a section (its settings the block's defaults, filled when the draft is normalised). */
export function addBlock(t: Template, sectionId: string, type: string): { template: Template; id: string } | null {
  let id = '';
  const template = inSection(t, sectionId, (s) => {
    id = freeId(type, s.blocks);
    Object.assign(s.blocks, { [id]: { type, settings: {}, disabled: false } });
    s.block_order.push(id);
    return true;
  });
  return template ? { template, id } : null;
}

/** A section's or block's settings replaced (null: no such section or block). */
export function withSettings(t: Template, sectionId: string, blockId: string | null, settings: Record<string, unknown>): Template | null {
  return inSection(t, sectionId, (s) => {
    if (blockId === null) s.settings = settings;
    else if (Object.hasOwn(s.blocks, blockId)) s.blocks[blockId]!.settings = settings;
    else return false;
    return true;
  });
}
