import { z } from 'zod';
import { issueDetails, PlatformError, type InputIssue } from '../errors.js';

export type InputSource = 'body' | 'query' | 'params' | 'headers';

/**
 * Parse request input with its endpoint's schema. Problems come back as path-prefixed
 * strings (`body.email: Invalid email address`) in a 400 `invalid_input` error.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, source: InputSource): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new PlatformError('invalid_data', 'invalid_input', 'The request has invalid input', { details: issueDetails(zodIssues(result.error), source) });
}

/** A schema's issues as the platform's input issues, at dotted paths (`line_items.0.quantity`; the whole input: ''). */
export const zodIssues = (error: z.ZodError): InputIssue[] => error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));

/**
 * The refinement of an update body whose fields are all optional: at least one must be given
 * (`.refine(...givesSomething())`), so an empty PATCH is a 400 and not a silent no-op.
 */
export function givesSomething(message = 'give at least one field to change') {
  return [(body: Record<string, unknown>) => Object.values(body).some((v) => v !== undefined), { message }] as const;
}

/**
 * An update body: each of `fields` optional, no other key, and at least one given
 * (givesSomething). `fields` are the ones its create body takes, before their defaults:
 * `updateBody(LocationFields)`.
 */
export function updateBody<S extends z.ZodRawShape>(fields: S, message?: string) {
  return z
    .strictObject(fields)
    .partial()
    .refine(...givesSomething(message));
}
