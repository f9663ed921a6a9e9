import { ObjectId } from 'mongodb';
import { z } from 'zod';

const ID = /^[0-9a-f]{24}$/;

/** An API id (24 lower-case hex characters) as an ObjectId, or null for anything else. */
export const parseObjectId = (id: string): ObjectId | null => (ID.test(id) ? new ObjectId(id) : null);

/** A string matched literally inside a regular expression (search queries). */
export const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An id in input (a body or query field): 24 lower-case hex characters; `what` names it in the message. */
export const IdString = (what?: string) => z.string().regex(ID, `must be ${what ? `a ${what} id` : 'an id'} (24 lowercase hex characters)`);
