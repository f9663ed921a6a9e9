import { html, raw, type Markup } from '../../../html.js';
import { blankForm, csrfInput, errorSummary, select, type FormState } from '../../../http/ui/forms.js';
import { badge, when } from '../../../http/ui/parts.js';
import { SETTINGS_DATA_KEY, type DraftKey, type Template, type TemplateKey } from '../../../themes/index.js';
import { storePage } from '../../layout.js';
import { storePath } from '../../request.js';
import { settingField, settingValues, type ImageChoice } from './fields.js';
import { appBlockChoices, editorPath, imageChoices, own, THEME_SETTINGS, type Editor, type EditorPage, type KeyState } from './load.js';
import { blockName, editedOf, sectionName, type Edited } from './selection.js';

/**
 * The theme editor's page (docs/admin.md, The theme editor), `…/themes/<theme_id>/editor?template=`:
 * the template picker, the template's sections (and the selected one's blocks) with their buttons,
 * the selected section's, block's or the theme's settings as a form generated from the schema, and
 * the preview of the draft in a frame beside it. Every action is a form that posts and comes back
 * here at the same template and selection; the script (src/browser/theme-editor.ts) saves the
 * settings form as the merchant types and reloads the preview.
 */

const TEMPLATE_NAMES = new Map<TemplateKey, string>([
  ['home', 'Home page'],
  ['product', 'Product'],
  ['collection', 'Collection'],
  ['page', 'Page'],
  ['cart', 'Cart'],
  ['blog', 'Blog'],
]);
export const templateName = (k: TemplateKey) => TEMPLATE_NAMES.get(k) ?? k;

/** The editor's own layout: the panel and the preview side by side, the preview below on a narrow screen (no script). */
const EDITOR_STYLE = raw(`<style>
.editor{display:grid;grid-template-columns:minmax(300px,400px) minmax(0,1fr);gap:18px;align-items:start}
.editor__preview{position:sticky;top:12px;background:var(--card);border:1px solid var(--line);border-radius:10px;overflow:hidden}
.editor__preview iframe{display:block;width:100%;height:78vh;border:0;background:#fff}.editor__preview p{margin:0;padding:8px 12px;border-bottom:1px solid var(--line);font-size:.85rem}
.templates{display:flex;flex-wrap:wrap;gap:6px;margin-bottom:14px}.templates a,.templates strong{padding:5px 12px;border:1px solid var(--line);border-radius:999px;background:#fff;text-decoration:none}
.templates strong{background:#e0e7ff;border-color:#b6c3f2;color:#1e3a8a}
.outline{list-style:none;margin:0 0 12px;padding:0}.outline li{border-bottom:1px solid var(--line);padding:8px 0}.outline li:last-child{border-bottom:0}
.outline .outline{margin:6px 0 0 14px}.outline__row{display:flex;flex-wrap:wrap;gap:6px;align-items:center;justify-content:space-between}
.outline__row form{display:flex;flex-wrap:wrap;gap:4px}.outline__name{font-weight:600;overflow-wrap:anywhere}.outline [aria-current]{color:#1e3a8a;text-decoration:none;background:#e0e7ff;border-radius:4px;padding:0 4px}
.mini{font:inherit;font-size:.8rem;padding:2px 8px;border:1px solid #8b8f99;border-radius:5px;background:#fff;color:var(--ink);cursor:pointer}
.inline-add{display:flex;gap:8px;align-items:flex-end;flex-wrap:wrap}.inline-add .field{flex:1;min-width:160px;margin-bottom:0}
.color-field{display:flex;gap:8px;align-items:flex-start}.color-field .field{flex:1}.swatch{flex:none;width:30px;height:30px;margin-top:30px;border:1px solid var(--line);border-radius:6px}
.radios{border:0;padding:0;margin:0 0 14px}.radios label{font-weight:400;display:block}.field--check label{font-weight:600}
.save-state{font-size:.85rem}
@media (max-width:1100px){.editor{grid-template-columns:minmax(0,1fr)}.editor__preview{position:static}.editor__preview iframe{height:600px}}
</style>`);

/** The hidden fields of every form of the editor: the selection to come back to, and the draft version the change starts from. */
function stateInputs(ed: Editor, key: DraftKey): Markup {
  const version = key === SETTINGS_DATA_KEY ? ed.settings.version : ed.template.version;
  return html`<input type="hidden" name="template" value="${ed.at.template}">${
    ed.at.section ? html`<input type="hidden" name="section" value="${ed.at.section}">` : null
  }${ed.at.block ? html`<input type="hidden" name="block" value="${ed.at.block}">` : null}<input type="hidden" name="version" value="${version}" data-draft-key="${key}">`;
}

/** The draft's state in words: when it was saved and whether it differs from live. */
function draftState(what: string, k: KeyState<unknown>): Markup {
  if (!k.hasDraft) return html`<span>${what}: no draft, this is the live version.</span>`;
  return html`<span>${what}: draft saved ${when(k.updatedAt)}${k.differs ? html`, ${badge('differs from live', 'warn')}` : html`, the same as live`}.</span>`;
}

function templatePicker(s: EditorPage, ed: Editor): Markup {
  return html`<nav class="templates" aria-label="Templates">
    ${ed.templates.map((k) =>
      k === ed.at.template
        ? html`<strong aria-current="page">${templateName(k)}</strong>`
        : html`<a href="${editorPath(s, { template: k })}">${templateName(k)}</a>`,
    )}
  </nav>`;
}

/** A section's or block's buttons (one small form: up, down, hide or show, remove). */
function rowButtons(
  s: EditorPage,
  ed: Editor,
  action: 'sections' | 'blocks',
  id: { section: string; block?: string },
  disabled: boolean,
  label: string,
): Markup {
  return html`<form method="post" action="${editorPath(s, {}, `/${action}`)}">
    ${csrfInput(s.viewer.csrf)}${stateInputs(ed, ed.at.template)}<input type="hidden" name="target" value="${id.block ?? id.section}">${
      id.block ? html`<input type="hidden" name="in_section" value="${id.section}">` : null
    }
    <button class="mini" name="op" value="up" aria-label="${`Move ${label} up`}">Up</button>
    <button class="mini" name="op" value="down" aria-label="${`Move ${label} down`}">Down</button>
    ${
      disabled
        ? html`<button class="mini" name="op" value="show" aria-label="${`Show ${label}`}">Show</button>`
        : html`<button class="mini" name="op" value="hide" aria-label="${`Hide ${label}`}">Hide</button>`
    }
    <button class="mini" name="op" value="remove" aria-label="${`Remove ${label}`}">Remove</button>
  </form>`;
}

const selectedLink = (href: string, text: string, current: boolean) =>
  current ? html`<a class="outline__name" href="${href}" aria-current="true">${text}</a>` : html`<a class="outline__name" href="${href}">${text}</a>`;

/** The template's sections in order, the selected one with its blocks and its Add block form. */
async function outline(s: EditorPage, ed: Editor): Promise<Markup> {
  const t: Template = ed.template.content;
  const apps = await appBlockChoices(s);
  const items = t.order.map((id) => {
    const section = own(t.sections, id);
    if (!section) return null;
    const name = sectionName(ed, section.type);
    const selected = ed.at.section === id;
    const def = Object.hasOwn(ed.e.bundle.sections, section.type) ? ed.e.bundle.sections[section.type] : undefined;
    const blocks = selected
      ? html`<ul class="outline" aria-label="${`Blocks of ${name}`}">
            ${section.block_order.map((b) => {
              const block = own(section.blocks, b);
              if (!block) return null;
              const bname = blockName(ed, block.type);
              return html`<li><div class="outline__row">
                  <span>${selectedLink(editorPath(s, { template: ed.at.template, section: id, block: b }), bname, ed.at.block === b)}${
                    block.disabled ? html` ${badge('hidden')}` : null
                  }</span>
                  ${rowButtons(s, ed, 'blocks', { section: id, block: b }, block.disabled, bname)}
                </div></li>`;
            })}
          </ul>
          ${addBlockForm(s, ed, id, [
            ...(def?.block_types ?? []).map((b) => ({ value: b, label: blockName(ed, b) })),
            ...(def?.accepts_app_blocks ? apps.map((a) => ({ value: a.type, label: a.label })) : []),
          ])}`
      : null;
    return html`<li>
        <div class="outline__row">
          <span>${selectedLink(editorPath(s, { template: ed.at.template, section: id }), name, selected && ed.at.block === null)}${
            section.disabled ? html` ${badge('hidden')}` : null
          }</span>
          ${rowButtons(s, ed, 'sections', { section: id }, section.disabled, name)}
        </div>
        ${blocks}
      </li>`;
  });
  return html`<ol class="outline" aria-label="Sections">${items}</ol>`;
}

function addBlockForm(s: EditorPage, ed: Editor, sectionId: string, choices: { value: string; label: string }[]): Markup | null {
  if (choices.length === 0) return null;
  return html`<form class="inline-add" method="post" action="${editorPath(s, {}, '/blocks')}">
    ${csrfInput(s.viewer.csrf)}${stateInputs(ed, ed.at.template)}<input type="hidden" name="in_section" value="${sectionId}">
    ${select(blankForm(), 'add', 'Add block', choices, { id: 'add-block' })}
    <button class="button button--secondary" name="op" value="add">Add</button>
  </form>`;
}

/** The sections this template may have (enabled on it), each preset a choice of its own. */
function sectionChoices(ed: Editor): { value: string; label: string }[] {
  return Object.values(ed.e.bundle.sections)
    .filter((d) => d.enabled_on.includes(ed.at.template))
    .flatMap((d) =>
      d.presets.length > 0 ? d.presets.map((p, i) => ({ value: `${d.type}:${i}`, label: ed.resolve(p.name) })) : [{ value: d.type, label: ed.resolve(d.name) }],
    );
}

function addSectionForm(s: EditorPage, ed: Editor): Markup | null {
  const choices = sectionChoices(ed);
  if (choices.length === 0) return null;
  return html`<form class="inline-add" method="post" action="${editorPath(s, {}, '/sections')}">
    ${csrfInput(s.viewer.csrf)}${stateInputs(ed, ed.at.template)}
    ${select(blankForm(), 'add', 'Add section', choices, { id: 'add-section' })}
    <button class="button button--secondary" name="op" value="add">Add</button>
  </form>`;
}

/** The settings form of the selection: every field of its schema, grouped as the theme groups them. */
function settingsForm(s: EditorPage, ed: Editor, edited: Edited, images: readonly ImageChoice[], form: FormState | undefined): Markup {
  const key = ed.at.section === THEME_SETTINGS ? SETTINGS_DATA_KEY : ed.at.template;
  const fields = edited.groups.flatMap((g) => g.fields);
  const state = form ?? blankForm(settingValues(fields, edited.settings, ed.resolve));
  const body =
    fields.length === 0
      ? html`<p class="muted">This has no settings.</p>`
      : html`${edited.groups.map((g) =>
          g.label
            ? html`<fieldset class="card"><legend>${g.label}</legend>${g.fields.map((f) => settingField(state, f, images))}</fieldset>`
            : g.fields.map((f) => settingField(state, f, images)),
        )}
        <div class="actions"><button class="button" type="submit">Save</button><span class="save-state muted" role="status" aria-live="polite"></span></div>`;
  return html`<form id="settings-form" method="post" action="${editorPath(s)}">
    ${csrfInput(s.viewer.csrf)}${stateInputs(ed, key)}
    <h2>${edited.title}</h2>
    ${errorSummary(state.problems, 'Not saved')}${body}
  </form>`;
}

export type EditorView = { form?: FormState; problems?: readonly string[]; status?: number };

/** The editor at its selection; after a refused form, that form again with its errors (nothing saved), or the page's problems. */
export async function renderEditor(s: EditorPage, ed: Editor, view: EditorView = {}): Promise<void> {
  const edited = editedOf(ed);
  const images = edited ? await imageChoices(s, ed) : [];
  const preview = editorPath(s, { template: ed.at.template }, '/preview');
  const themes = storePath(s.store, '/themes');
  const publish = ed.isLive
    ? html`<a class="button" href="${editorPath(s, { template: ed.at.template }, '/publish')}">Publish</a>`
    : html`<form method="post" action="${editorPath(s, {}, '/publish')}">${csrfInput(s.viewer.csrf)}${stateInputs(ed, ed.at.template)}<button class="button">Publish</button></form>`;
  const discardKey = ed.at.section === THEME_SETTINGS ? ed.settings : ed.template;
  const discard = discardKey.hasDraft
    ? html`<a class="button button--secondary" href="${editorPath(s, { template: ed.at.template, section: ed.at.section === THEME_SETTINGS ? THEME_SETTINGS : null }, '/discard')}">Discard ${
        ed.at.section === THEME_SETTINGS ? 'settings draft' : 'draft'
      }</a>`
    : null;
  const body = html`${EDITOR_STYLE}
    <h1>Customize ${ed.name} ${ed.isLive ? badge('live', 'ok') : badge('not live')}</h1>
    <p class="actions"><a href="${themes}">Themes</a>${publish}${discard}</p>
    <p class="muted" id="draft-state">${draftState(templateName(ed.at.template), ed.template)} ${draftState('Theme settings', ed.settings)}</p>
    ${errorSummary(view.problems ?? [], 'Not done')}
    ${templatePicker(s, ed)}
    <div class="editor">
      <div class="editor__panel">
        <section class="card" aria-labelledby="sections-h">
          <h2 id="sections-h">${templateName(ed.at.template)}: sections</h2>
          ${await outline(s, ed)}
          ${addSectionForm(s, ed)}
          <p>${selectedLink(editorPath(s, { template: ed.at.template, section: THEME_SETTINGS }), 'Theme settings', ed.at.section === THEME_SETTINGS)}</p>
        </section>
        <section class="card">
          ${edited ? settingsForm(s, ed, edited, images, view.form) : html`<p class="muted">Choose a section or block to change its settings.</p>`}
        </section>
      </div>
      <div class="editor__preview">
        <p class="muted">Preview of the draft (${templateName(ed.at.template)}): it shows what is saved.</p>
        <iframe id="preview" title="${`Preview of ${templateName(ed.at.template)}`}" src="${preview}" sandbox="allow-scripts"></iframe>
      </div>
    </div>`;
  // The page frames only its own preview (src/http/page.ts: a strict policy, script from this site only).
  s.render(storePage(s, 'themes', { title: `Customize ${ed.name}`, body, scripts: ['theme-editor'] }), view.status ?? 200, { frames: ["'self'"] });
}
