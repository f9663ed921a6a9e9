import { GraphQLError } from 'graphql';
import type { z } from 'zod';
import { PlatformError } from '../errors.js';

/** Null for what the REST twin answers 404 for (another store's id, a draft, an unknown cart): GraphQL answers absence with null. */
export async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof PlatformError && err.kind === 'not_found') return null;
    throw err;
  }
}

/** A REST list's query from GraphQL arguments, checked by the REST schema (its issues are the caller's errors). */
export function restQuery<S extends z.ZodType>(schema: S, raw: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== null)));
  if (parsed.success) return parsed.data;
  throw new GraphQLError(parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; '), {
    extensions: { code: 'BAD_USER_INPUT' },
  });
}
