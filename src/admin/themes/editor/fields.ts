import { html, type Markup } from '../../../html.js';
import { field, select, textarea, type FormState } from '../../../http/ui/forms.js';
import { sanitizeMerchantHtml } from '../../../merchant-html.js';
import type { SettingField } from '../../../themes/index.js';

/**
 * A settings form generated from a settings schema (docs/admin.md, The theme editor): one control
 * per field for the eleven setting types, labels already in the merchant's language, each value
 * at the field `s.<id>`. What the form posts becomes the settings object the draft holds; the
 * bounds (min/max/step, options, lengths, url scheme, colour format) are the drafts API's own
 * rules, whose issues come back at their fields. An image is a choice among the theme's image
 * assets and the store's media, checked here (the bundle rules accept any media id).
 */

/** A field's schema with its label, info and option labels resolved (`t:` references) for the page. */
export type ShownField = SettingField;

/** The name of a setting's control in the form. */
export const fieldName = (id: string) => `s.${id}`;

/** What an image setting may be: the value stored, and what the merchant sees. */
export type ImageChoice = { value: string; label: string };

/** Text as the merchant reads it: a `t:` reference resolved in their language. */
export type Resolve = (value: string) => string;

/** The settings as the form's values: text as it reads (a `t:` reference resolved), numbers in decimal, a toggle as `on` when true. */
export function settingValues(fields: readonly ShownField[], settings: Record<string, unknown>, resolve: Resolve): Map<string, string> {
  const values = new Map<string, string>();
  for (const f of fields) {
    const v = Object.hasOwn(settings, f.id) ? settings[f.id] : f.default;
    if (f.type === 'toggle') {
      if (v === true) values.set(fieldName(f.id), 'on');
    } else if (typeof v === 'string') values.set(fieldName(f.id), resolve(v));
    else if (typeof v === 'number') values.set(fieldName(f.id), String(v));
  }
  return values;
}

const hintOf = (f: ShownField): string | undefined => {
  const bounds =
    f.type === 'range' || f.type === 'number'
      ? [
          f.min !== undefined ? `from ${f.min}` : null,
          f.max !== undefined ? `to ${f.max}` : null,
          f.step !== undefined ? `in steps of ${f.step}` : null,
          f.unit ?? null,
        ]
          .filter(Boolean)
          .join(' ')
      : f.type === 'color'
        ? '#rgb, #rrggbb or with alpha (#rrggbbaa)'
        : f.type === 'url'
          ? 'A path in the shop (/collections/all) or an https:// address'
          : f.type === 'richtext'
            ? 'HTML: paragraphs, links and emphasis; anything else is removed'
            : '';
  const hint = [f.info, bounds].filter(Boolean).join('. ');
  return hint || undefined;
};

/** The control of one setting. */
export function settingField(form: FormState, f: ShownField, images: readonly ImageChoice[]): Markup {
  const name = fieldName(f.id);
  const hint = hintOf(f);
  const placeholder = f.placeholder ? html` placeholder="${f.placeholder}"` : null;
  switch (f.type) {
    case 'text':
      return field(form, name, f.label, { hint, attrs: html`maxlength="1000"${placeholder}` });
    case 'textarea':
      return textarea(form, name, f.label, { hint, rows: 4, maxlength: 10000 });
    case 'richtext':
      return textarea(form, name, f.label, { hint, rows: 6, maxlength: 20000 });
    case 'url':
      return field(form, name, f.label, { hint, attrs: html`inputmode="url" maxlength="2048"${placeholder}` });
    case 'color':
      return colorField(form, name, f.label, hint);
    case 'range':
    case 'number':
      return field(form, name, f.label, { type: 'number', hint, attrs: numberAttrs(f) });
    case 'select':
      return select(form, name, f.label, f.options ?? [], { id: idOf(name) });
    case 'image':
      return select(form, name, f.label, images, { placeholder: 'No image (the theme’s default)', id: idOf(name) });
    case 'radio':
      return radios(form, name, f.label, f.options ?? [], hint);
    case 'toggle':
      return html`<div class="field field--check">
        <label><input type="checkbox" name="${name}" value="on"${form.values.has(name) ? html` checked` : null}> ${f.label}</label>${
          hint ? html`<span class="field__hint">${hint}</span>` : null
        }
      </div>`;
  }
}

const idOf = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

// Bounds the browser enforces too (the server checks them again: a form can be posted by anything).
const numberAttrs = (f: ShownField) =>
  html`step="${f.step ?? 'any'}"${f.min !== undefined ? html` min="${f.min}"` : null}${f.max !== undefined ? html` max="${f.max}"` : null}`;

const COLOR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/** A colour as text (every form the bundle takes, alpha included, which `<input type="color">` cannot hold), with a swatch of a valid one. */
function colorField(form: FormState, name: string, label: string, hint: string | undefined): Markup {
  const value = form.values.get(name) ?? '';
  const swatch = COLOR.test(value) ? html`<span class="swatch" style="background:${value}" aria-hidden="true"></span>` : null;
  return html`<div class="color-field">${swatch}${field(form, name, label, { hint, attrs: html`maxlength="9" spellcheck="false"` })}</div>`;
}

function radios(form: FormState, name: string, label: string, options: readonly { value: string; label: string }[], hint: string | undefined): Markup {
  const id = idOf(name);
  const error = form.errors.get(name);
  const chosen = form.values.get(name) ?? '';
  return html`<fieldset class="field radios"${error ? html` aria-describedby="${id}-error"` : null}>
    <legend>${label}</legend>${hint ? html`<span class="field__hint">${hint}</span>` : null}
    ${options.map(
      (o, i) =>
        html`<label><input type="radio" id="${id}-${i}" name="${name}" value="${o.value}"${o.value === chosen ? html` checked` : null}> ${o.label}</label>`,
    )}${error ? html`<span id="${id}-error" class="field__error">${error}</span>` : null}
  </fieldset>`;
}

/**
 * A form's settings as the draft's object, or the errors of the fields this page checks (a number
 * that is none, an image not offered). A text still reading as the `t:` reference it was shown
 * from keeps the reference, so it stays translated in every language.
 */
export function parseSettings(
  fields: readonly ShownField[],
  form: ReadonlyMap<string, string>,
  images: readonly ImageChoice[],
  was: { settings: Record<string, unknown>; resolve: Resolve },
): { settings: Record<string, unknown>; errors: Map<string, string> } {
  const settings = new Map<string, unknown>();
  const errors = new Map<string, string>();
  for (const f of fields) {
    const name = fieldName(f.id);
    const raw = form.get(name);
    if (f.type === 'toggle') {
      settings.set(f.id, raw !== undefined);
      continue;
    }
    if (raw === undefined) continue;
    const before = Object.hasOwn(was.settings, f.id) ? was.settings[f.id] : undefined;
    if (typeof before === 'string' && before.startsWith('t:') && was.resolve(before) === raw) settings.set(f.id, before);
    else if (f.type === 'text' || f.type === 'textarea') settings.set(f.id, raw);
    else if (f.type === 'richtext') settings.set(f.id, sanitizeMerchantHtml(raw));
    // An optional value left blank is the theme's default (the draft is normalised as an upload is).
    else if (raw.trim() === '') continue;
    else if (f.type === 'range' || f.type === 'number') {
      const n = Number(raw);
      if (Number.isFinite(n)) settings.set(f.id, n);
      else errors.set(name, 'must be a number');
    } else if (f.type === 'image') {
      if (images.some((i) => i.value === raw)) settings.set(f.id, raw);
      else errors.set(name, 'must be one of the theme’s images or the store’s media');
    } else settings.set(f.id, raw.trim());
  }
  return { settings: Object.fromEntries(settings), errors };
}

/**
 * The drafts API's issues (`path: message`) at the fields of the settings object at `prefix`
 * (`templates.home.sections.hero.settings.`): each at its field, the others as problems of the page.
 */
export function issuesAtFields(details: readonly string[], prefix: string, fields: readonly ShownField[]): { errors: Map<string, string>; problems: string[] } {
  const errors = new Map<string, string>();
  const problems: string[] = [];
  for (const issue of details) {
    const at = issue.indexOf(': ');
    const path = at < 0 ? issue : issue.slice(0, at);
    const message = at < 0 ? issue : issue.slice(at + 2);
    const id = path.startsWith(prefix) ? path.slice(prefix.length).split('.')[0] : undefined;
    if (id !== undefined && fields.some((f) => f.id === id)) {
      if (!errors.has(fieldName(id))) errors.set(fieldName(id), message);
    } else problems.push(issue);
  }
  return { errors, problems };
}
