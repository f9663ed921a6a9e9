/**
 * Field lists written once in SDL and used by more than one type: a create input and its update
 * input, an output type and the input a client writes of it. Each helper takes `name: Type` lines
 * and keeps their order (the printed schemas list fields as written).
 */

/** The same fields, none required: an update input of a create input's fields (`[String!]!` becomes `[String!]`). */
export const optionalFields = (fields: string) => fields.replace(/!(?=[ \t]*$)/gm, '');

/** The fields without those named: the input of an output type whose other fields are read-only. */
export const withoutFields = (fields: string, names: readonly string[]) =>
  fields
    .split('\n')
    .filter((line) => !names.includes(line.trim().split(':')[0]!))
    .join('\n');
