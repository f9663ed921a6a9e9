import { ObjectId } from 'mongodb';
import { PlatformError } from '../../../errors.js';
import { confirmStep } from '../../../http/ui/parts.js';
import { discardDraft, publishDrafts, saveDraft, SETTINGS_DATA_KEY, type DraftKey, type Template } from '../../../themes/index.js';
import { storePage } from '../../layout.js';
import { issuesAtFields, parseSettings } from './fields.js';
import { draftKeyOf, editorPath, imageChoices, loadEditor, THEME_SETTINGS, type Editor, type EditorPage, type Selection } from './load.js';
import { renderEditor, templateName } from './page.js';
import { editedOf } from './selection.js';
import { addBlock, addSection, changeBlock, changeSection, SECTION_OPS, withSettings, type SectionOp } from './structure.js';

/**
 * The theme editor's forms (docs/admin.md, The theme editor), each through the drafts and releases
 * services of the REST API (`saveDraft`, `discardDraft`, `publishDrafts`): a change is the whole
 * template (or the theme settings) saved as that key's draft from the version the page was made
 * from, so no other template's draft is touched and a page older than the draft is refused (409).
 * Success answers 303 back to the editor at the same template and selection.
 */

/** The selection a request names: a GET's query, a form's fields. */
const askedIn = (s: EditorPage) => {
  const query = s.ctx.query;
  const q = (name: 'template' | 'section' | 'block') => s.form.get(name) ?? (typeof query[name] === 'string' ? query[name] : undefined);
  return { template: q('template'), section: q('section'), block: q('block') };
};

export const editorPage = async (s: EditorPage) => renderEditor(s, await loadEditor(s, askedIn(s)));

const merchantOf = (s: EditorPage) => new ObjectId(s.viewer.merchant.merchantId);

/** The draft version a form was made from (a hidden field); anything else is the page again with the problem. */
function versionOf(s: EditorPage): number | null {
  const raw = s.form.get('version') ?? '';
  return /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

const STALE = 'The draft changed since this page was made (in another tab?): it is shown as it is now; make the change again.';

/**
 * Save one key's draft from the form's version: 303 back to `to` on success; otherwise the
 * editor again (the draft as it is now on a conflict, 409; the drafts API's issues, 400).
 */
async function saveAndReturn(s: EditorPage, ed: Editor, key: DraftKey, content: Record<string, unknown>, to: Partial<Selection>): Promise<void> {
  const version = versionOf(s);
  if (version === null) return renderEditor(s, ed, { problems: ['The form has no draft version: reload the page.'], status: 400 });
  let saved;
  try {
    saved = await saveDraft(s.platform, ed.e, merchantOf(s), key, content, version);
  } catch (err) {
    if (err instanceof PlatformError && err.code === 'invalid_draft') return renderEditor(s, ed, { problems: err.extra.details ?? [err.message], status: 400 });
    throw err;
  }
  if (saved.outcome === 'conflict') return renderEditor(s, await loadEditor(s, askedIn(s)), { problems: [STALE], status: 409 });
  s.seeOther(editorPath(s, { template: ed.at.template, ...to }));
}

/** POST `…/editor`: the selected section's, block's or the theme's settings from the generated form. */
export async function saveSettingsAction(s: EditorPage): Promise<void> {
  const ed = await loadEditor(s, askedIn(s));
  const edited = editedOf(ed);
  if (!edited) return renderEditor(s, ed, { problems: ['That section or block is no longer in the draft.'], status: 409 });
  const fields = edited.groups.flatMap((g) => g.fields);
  const images = await imageChoices(s, ed);
  const parsed = parseSettings(fields, s.form, images, { settings: edited.settings, resolve: ed.resolve });
  const refused = (errors: Map<string, string>, problems: string[]) =>
    renderEditor(s, ed, { form: { values: s.form, errors, problems: problems.length || errors.size ? problems : [] }, status: 400 });
  if (parsed.errors.size > 0) return refused(parsed.errors, []);
  const key = draftKeyOf(ed.at);
  let content: Record<string, unknown>;
  if (key === SETTINGS_DATA_KEY) content = { ...ed.settings.content, current: parsed.settings };
  else content = withSettings(ed.template.content, ed.at.section!, ed.at.block, parsed.settings)!;
  const version = versionOf(s);
  if (version === null) return refused(new Map(), ['The form has no draft version: reload the page.']);
  let saved;
  try {
    saved = await saveDraft(s.platform, ed.e, merchantOf(s), key, content, version);
  } catch (err) {
    if (!(err instanceof PlatformError && err.code === 'invalid_draft')) throw err;
    const at = issuesAtFields(err.extra.details ?? [], edited.prefix, fields);
    return refused(at.errors, at.problems);
  }
  if (saved.outcome === 'conflict') return renderEditor(s, await loadEditor(s, askedIn(s)), { problems: [STALE], status: 409 });
  s.seeOther(editorPath(s, ed.at));
}

const isOp = (op: string | undefined): op is SectionOp => (SECTION_OPS as readonly string[]).includes(op ?? '');
const GONE = 'That section or block is no longer in the draft (another tab changed it): this is the draft as it is now.';

/** POST `…/editor/sections`: add a section (a type, or a type's preset `type:<i>`), or move, hide, show or remove one. */
export async function sectionAction(s: EditorPage): Promise<void> {
  const ed = await loadEditor(s, askedIn(s));
  const op = s.form.get('op');
  const t: Template = ed.template.content;
  if (op === 'add') {
    const [type = '', preset] = (s.form.get('add') ?? '').split(':');
    const def = Object.hasOwn(ed.e.bundle.sections, type) ? ed.e.bundle.sections[type]! : null;
    const chosen = def && preset !== undefined ? def.presets[Number(preset)] : undefined;
    if (!def || !def.enabled_on.includes(ed.at.template) || (preset !== undefined && !chosen))
      return renderEditor(s, ed, { problems: [`Choose a section this theme offers for the ${templateName(ed.at.template)} template.`], status: 400 });
    const added = addSection(t, type, chosen?.settings ?? {});
    return saveAndReturn(s, ed, ed.at.template, added.template, { section: added.id });
  }
  const target = s.form.get('target') ?? '';
  const changed = isOp(op) ? changeSection(t, target, op) : null;
  if (!changed) return renderEditor(s, ed, { problems: [GONE], status: 409 });
  return saveAndReturn(s, ed, ed.at.template, changed, op === 'remove' && ed.at.section === target ? { section: null } : ed.at);
}

/** POST `…/editor/blocks`: add a block of a type the section takes (an app block where it accepts them), or move, hide, show or remove one. */
export async function blockAction(s: EditorPage): Promise<void> {
  const ed = await loadEditor(s, askedIn(s));
  const op = s.form.get('op');
  const sectionId = s.form.get('in_section') ?? '';
  const t: Template = ed.template.content;
  if (op === 'add') {
    const type = s.form.get('add') ?? '';
    // Which types a section takes is the drafts API's rule (block_types, accepts_app_blocks): it says so at the block's path.
    const added = addBlock(t, sectionId, type);
    if (!added) return renderEditor(s, ed, { problems: [GONE], status: 409 });
    return saveAndReturn(s, ed, ed.at.template, added.template, { section: sectionId, block: added.id });
  }
  const target = s.form.get('target') ?? '';
  const changed = isOp(op) ? changeBlock(t, sectionId, target, op) : null;
  if (!changed) return renderEditor(s, ed, { problems: [GONE], status: 409 });
  return saveAndReturn(s, ed, ed.at.template, changed, op === 'remove' && ed.at.block === target ? { section: sectionId, block: null } : ed.at);
}

/** GET `…/editor/publish`: the confirm step of publishing to the live theme (what shoppers see changes at once). */
export async function confirmPublish(s: EditorPage): Promise<void> {
  const ed = await loadEditor(s, askedIn(s));
  const body = confirmStep({
    question: `Publish your changes to ${ed.name}?`,
    detail: 'This theme is live: every draft (each template’s and the theme settings’) becomes what shoppers see now, as a new release you can roll back.',
    action: editorPath(s, {}, '/publish'),
    csrf: s.viewer.csrf,
    button: 'Publish',
    back: { href: editorPath(s, ed.at), label: 'Back to the editor' },
  });
  s.render(storePage(s, 'themes', { title: `Publish ${ed.name}`, body }));
}

/** POST `…/editor/publish`: every draft of the theme becomes its live copy as a release (`publishDrafts`). */
export async function publishAction(s: EditorPage): Promise<void> {
  const ed = await loadEditor(s, askedIn(s));
  try {
    const release = await publishDrafts(s.platform, ed.e, merchantOf(s), undefined);
    s.seeOther(editorPath(s, ed.at), `Published: release ${release.number} is live in this theme.`);
  } catch (err) {
    if (err instanceof PlatformError && err.kind === 'conflict') return renderEditor(s, ed, { problems: [err.message], status: 409 });
    throw err;
  }
}

/** GET `…/editor/discard`: the confirm step of dropping the template's draft (or the theme settings'). */
export async function confirmDiscard(s: EditorPage): Promise<void> {
  const ed = await loadEditor(s, askedIn(s));
  const what = ed.at.section === THEME_SETTINGS ? 'the theme settings' : `the ${templateName(ed.at.template)} template`;
  const body = confirmStep({
    question: `Discard the draft of ${what}?`,
    detail: 'Its unpublished changes are lost; the live version stays as it is. Other templates’ drafts are kept.',
    action: editorPath(s, { template: ed.at.template, section: ed.at.section === THEME_SETTINGS ? THEME_SETTINGS : null }, '/discard'),
    csrf: s.viewer.csrf,
    button: 'Discard draft',
    back: { href: editorPath(s, ed.at), label: 'Back to the editor' },
  });
  s.render(storePage(s, 'themes', { title: `Discard draft`, body }));
}

/** POST `…/editor/discard`: that key's draft is dropped (`discardDraft`); no draft is the editor with the message. */
export async function discardAction(s: EditorPage): Promise<void> {
  const ed = await loadEditor(s, askedIn(s));
  try {
    await discardDraft(s.platform, ed.e, merchantOf(s), draftKeyOf(ed.at));
  } catch (err) {
    if (err instanceof PlatformError && err.code === 'no_draft') return renderEditor(s, ed, { problems: [err.message], status: 409 });
    throw err;
  }
  s.seeOther(editorPath(s, { template: ed.at.template }), 'Draft discarded.');
}
