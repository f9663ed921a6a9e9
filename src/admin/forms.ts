import type { z } from 'zod';
import { PlatformError } from '../errors.js';
import { formWithIssues, formWithProblem, type FormState } from '../http/ui/forms.js';
import { zodIssues } from '../http/validate.js';

/**
 * A form's fields, made into the API's body (`body`), through the API's schema: the data, or the
 * form shown again with the schema's issues at their fields (those among `fields`; others above them).
 */
export function parsedBody<S extends z.ZodType>(schema: S, body: unknown, form: ReadonlyMap<string, string>, fields: ReadonlySet<string>) {
  const result = schema.safeParse(body);
  return result.success ? { data: result.data as z.output<S> } : { form: formWithIssues(form, zodIssues(result.error), fields) };
}

/**
 * A service's refusal of an admin form, as the form shown again (docs/admin.md, Forms): its input
 * issues at their fields (those among `fields`; others above them), any other refusal a client
 * caused (a conflict: `over_refund`, `subdomain_taken`) as a message above the fields, or at the
 * field `atField` names for its code. Anything else is not the form's: it is thrown on, to be the
 * error page it is (a 404, a 503).
 */
export function refusedForm(
  values: ReadonlyMap<string, string>,
  err: unknown,
  fields: ReadonlySet<string>,
  atField: ReadonlyMap<string, string> = new Map(),
): FormState {
  if (!(err instanceof PlatformError) || (err.kind !== 'invalid_data' && err.kind !== 'conflict')) throw err;
  if (err.extra.issues?.length) return formWithIssues(values, err.extra.issues, fields);
  const field = atField.get(err.code);
  if (field) return { values, errors: new Map([[field, err.message]]), problems: [] };
  const form = formWithProblem(values, err.message);
  return err.extra.details?.length ? { ...form, problems: [err.message, ...err.extra.details] } : form;
}
