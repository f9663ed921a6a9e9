import type { z } from 'zod';
import type { InputIssue } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import { formWithIssues, hiddenInput, type FormState } from '../../http/ui/forms.js';
import { zodIssues } from '../../http/validate.js';

/**
 * A table the API replaces as a whole (`PUT /v1/shipping`'s rates, `PUT /v1/taxes`'s), edited as
 * one form (docs/admin.md, Settings): row `i`'s fields are `r<i>_<name>`, `rows` says how many
 * were shown (the last one blank, to add a row), and a row's Remove box drops it. The API's issue
 * at `rates.<n>.<key>` is shown at the field of the `n`th row sent.
 */

export const rowField = (i: number, name: string) => `r${i}_${name}`;

/** The rows a form shows: those sent (bounded by the API's `max` and one blank row). */
const rowsOf = (form: ReadonlyMap<string, string>, max: number) => Math.min(Math.max(Number(form.get('rows')) || 1, 1), max + 1);

/** A table's rows as the form's values: each row's fields by name, and one blank row after them. */
export function rowValues(rows: readonly Record<string, string>[]): Map<string, string> {
  const values = new Map([['rows', String(rows.length + 1)]]);
  rows.forEach((row, i) => Object.entries(row).forEach(([name, value]) => values.set(rowField(i, name), value)));
  return values;
}

type RowTable = {
  /** The API's body key of the rows (`rates`). */
  key: string;
  /** The rows' fields by the API's name of each (`price` → `price`, `rate_bps` → `rate`): the form's names, in order. */
  fields: ReadonlyMap<string, string>;
  /** The most rows the API takes. */
  max: number;
};

/**
 * The form's rows through `toRow` (a row's fields to its body, pushing issues of what the form
 * itself cannot take at their fields), then the whole body (`wrap`) through the API's schema: the
 * data, or the form again with every issue at its row's field.
 */
export function parsedRows<S extends z.ZodType>(
  schema: S,
  form: ReadonlyMap<string, string>,
  table: RowTable,
  toRow: (field: (name: string) => string, value: (name: string) => string, issues: InputIssue[]) => unknown,
  wrap: (rows: unknown[]) => unknown,
): { data: z.output<S>; form?: undefined } | { data?: undefined; form: FormState } {
  const issues: InputIssue[] = [];
  const sent: number[] = [];
  const rows: unknown[] = [];
  const names = [...table.fields.values()];
  for (let i = 0; i < rowsOf(form, table.max); i++) {
    const value = (name: string) => (form.get(rowField(i, name)) ?? '').trim();
    if (form.get(rowField(i, 'remove')) === 'on' || names.every((n) => value(n) === '')) continue;
    sent.push(i);
    rows.push(toRow((name) => rowField(i, name), value, issues));
  }
  /** An issue's field: `rates.<n>.<key>` that row's; `rates.<n>` (a row another covers) its first field. */
  const fieldOf = (path: string) => {
    const m = new RegExp(`^${table.key}\\.(\\d+)(?:\\.(\\w+))?`).exec(path);
    if (!m) return path.split('.')[0]!;
    return rowField(sent[Number(m[1])] ?? 0, (m[2] && table.fields.get(m[2])) || names[0]!);
  };
  const parsed = schema.safeParse(wrap(rows));
  if (!parsed.success) issues.push(...zodIssues(parsed.error).map((i) => ({ ...i, path: fieldOf(i.path) })));
  if (issues.length || !parsed.success) return { form: formWithIssues(form, issues, rowFieldNames(form, table)) };
  return { data: parsed.data as z.output<S> };
}

/** Every name an issue may sit at: each row's fields, and the form's own `extra`. */
export function rowFieldNames(form: ReadonlyMap<string, string>, table: RowTable, extra: readonly string[] = []): Set<string> {
  const names = new Set(extra);
  for (let i = 0; i < rowsOf(form, table.max); i++) for (const n of table.fields.values()) names.add(rowField(i, n));
  return names;
}

/** The rows as fieldsets (`row(i)` a row's fields), the last one blank to add a row, each other with its Remove box. */
export function editableRows(form: FormState, table: RowTable, o: { legend: (i: number) => string; add: string; row: (i: number) => Markup }): Markup {
  const rows = rowsOf(form.values, table.max);
  return html`${hiddenInput('rows', String(rows))}${Array.from({ length: rows }, (_, i) => {
    const last = i === rows - 1;
    const remove = rowField(i, 'remove');
    return html`<fieldset class="card" style="margin:0 0 12px">
      <legend>${last ? o.add : o.legend(i)}</legend>
      <div class="grid">${o.row(i)}</div>
      ${last ? null : html`<label><input type="checkbox" name="${remove}" value="on"${form.values.get(remove) === 'on' ? html` checked` : null}> Remove</label>`}
    </fieldset>`;
  })}`;
}
