import type { z } from 'zod';
import type { InputIssue } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import { zodIssues } from '../validate.js';

/**
 * Forms of the platform's pages and the shop's (docs/console.md, Forms): a form shown again after
 * a refusal keeps what was typed (never a password) and says at each field what is wrong, from the
 * same input issues the API reports (a schema's, or a service's `invalid_data` issues, their paths
 * relative to the form). The markup is the same everywhere; each layout's stylesheet gives it its look.
 */

export type FormState = {
  /** What was sent, shown again. */
  values: ReadonlyMap<string, string>;
  /** The first problem of each field, by the field's name. */
  errors: ReadonlyMap<string, string>;
  /** Problems of no one field (a refusal: a wrong password), listed above the fields. */
  problems: readonly string[];
};

/** A form as first shown: empty, or with values to start from. */
export const blankForm = (values: ReadonlyMap<string, string> = new Map()): FormState => ({ values, errors: new Map(), problems: [] });

/**
 * A form shown again with its issues: each at the field its path starts with (`city`,
 * `reasons.0` at `reasons`), the first one a field has; an issue of no field among `fields` (when
 * given) is listed above them.
 */
export function formWithIssues(values: ReadonlyMap<string, string>, issues: readonly InputIssue[], fields?: ReadonlySet<string>): FormState {
  const errors = new Map<string, string>();
  const problems: string[] = [];
  for (const issue of issues) {
    const field = issue.path.split('.')[0] ?? '';
    if (field && (!fields || fields.has(field))) {
      if (!errors.has(field)) errors.set(field, issue.message);
    } else problems.push(issue.path ? `${issue.path}: ${issue.message}` : issue.message);
  }
  return { values, errors, problems };
}

/** A form's problems: a refusal of the whole form (the email or password is wrong). */
export const formWithProblem = (values: ReadonlyMap<string, string>, problem: string): FormState => ({ values, errors: new Map(), problems: [problem] });

/** A form's fields as a schema's input: the CSRF token left out, and a field left blank as absent. */
export const formInput = (fields: ReadonlyMap<string, string>) => Object.fromEntries([...fields].filter(([k, v]) => k !== 'csrf_token' && v.trim() !== ''));

/** A posted form through its schema: the data, or the form to show again with each issue at its field. */
export function parseForm<S extends z.ZodType>(
  schema: S,
  fields: ReadonlyMap<string, string>,
): { data: z.output<S>; form?: undefined } | { data?: undefined; form: FormState } {
  const parsed = schema.safeParse(formInput(fields));
  return parsed.success ? { data: parsed.data } : { form: formWithIssues(fields, zodIssues(parsed.error)) };
}

/** The hidden `csrf_token` every form of a page that has one carries. */
export const csrfInput = (token: string | null) => (token ? html`<input type="hidden" name="csrf_token" value="${token}">` : null);

export const hiddenInput = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`;

export type FieldOptions = {
  type?: 'text' | 'email' | 'password' | 'tel' | 'search' | 'number' | 'url' | 'date';
  required?: boolean;
  autocomplete?: string;
  /** A line under the label saying what to type. */
  hint?: string;
  /** "(optional)" after the label of a field that is not required (the shop's checkout). */
  markOptional?: boolean;
  /** More attributes, constant markup (``html`inputmode="numeric" maxlength="6"` ``). */
  attrs?: Markup;
  /** The element's id, when the page has two fields of one name (two forms). */
  id?: string;
};

const idOf = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** The label, and under the control its error (`aria-invalid`, `aria-describedby`) or hint. */
function control(
  form: FormState,
  name: string,
  label: string,
  o: { required?: boolean; hint?: string; markOptional?: boolean; id?: string },
  input: (id: string, aria: Markup) => Markup,
) {
  const id = o.id ?? idOf(name);
  const error = form.errors.get(name);
  const described = error ? `${id}-error` : o.hint ? `${id}-hint` : null;
  const aria = html`${error ? html` aria-invalid="true"` : null}${described ? html` aria-describedby="${described}"` : null}`;
  return html`<div class="field">
    <label for="${id}">${label}${!o.required && o.markOptional ? html` <span class="muted">(optional)</span>` : null}</label>${
      o.hint ? html`<span id="${id}-hint" class="field__hint">${o.hint}</span>` : null
    }${input(id, aria)}${error ? html`<span id="${id}-error" class="field__error">${error}</span>` : null}
  </div>`;
}

/** A labelled input, keeping what was typed (a password never). */
export function field(form: FormState, name: string, label: string, o: FieldOptions = {}): Markup {
  const type = o.type ?? 'text';
  const value = type === 'password' ? '' : (form.values.get(name) ?? '');
  return control(
    form,
    name,
    label,
    o,
    (id, aria) =>
      html`<input id="${id}" name="${name}" type="${type}" value="${value}"${o.required ? html` required` : null}${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : null}${o.attrs ? html` ${o.attrs}` : null}${aria}>`,
  );
}

/** A labelled file input (a file form's: `PageSpec.upload`, `enctype="multipart/form-data"`); a browser never shows a chosen file again. */
export const fileField = (form: FormState, name: string, label: string, o: { accept: string; hint?: string }): Markup =>
  control(form, name, label, o, (id, aria) => html`<input id="${id}" name="${name}" type="file" accept="${o.accept}" style="max-width:100%"${aria}>`);

/** A labelled textarea, keeping what was typed. */
export function textarea(
  form: FormState,
  name: string,
  label: string,
  o: { required?: boolean; rows?: number; maxlength?: number; hint?: string } = {},
): Markup {
  return control(
    form,
    name,
    label,
    o,
    (id, aria) =>
      html`<textarea id="${id}" name="${name}" rows="${o.rows ?? 3}"${o.required ? html` required` : null}${o.maxlength ? html` maxlength="${o.maxlength}"` : null}${aria}>${form.values.get(name) ?? ''}</textarea>`,
  );
}

/** A labelled select; the sent value (else `selected`) chosen; `placeholder` a first empty choice. */
export function select(
  form: FormState,
  name: string,
  label: string,
  options: readonly { value: string; label: string }[],
  o: { required?: boolean; autocomplete?: string; placeholder?: string; selected?: string | null; markOptional?: boolean; id?: string } = {},
): Markup {
  const chosen = form.values.get(name) ?? o.selected ?? '';
  return control(
    form,
    name,
    label,
    o,
    (id, aria) =>
      html`<select id="${id}" name="${name}"${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : null}${o.required ? html` required` : null}${aria}>
        ${
          o.placeholder !== undefined ? html`<option value="">${o.placeholder}</option>` : null
        }${options.map((c) => html`<option value="${c.value}"${c.value === chosen ? html` selected` : null}>${c.label}</option>`)}
      </select>`,
  );
}

/** What is wrong with a form, above its fields (`role="alert"`); nothing when all is well. */
export function errorSummary(messages: readonly string[], heading?: string): Markup | null {
  if (messages.length === 0) return null;
  return html`<div class="errors" role="alert">
    ${heading ? html`<strong>${heading}</strong>` : null}
    <ul>
      ${messages.map((m) => html`<li>${m}</li>`)}
    </ul>
  </div>`;
}
