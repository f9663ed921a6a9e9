import { ObjectId } from 'mongodb';

/** An API id (24 lower-case hex characters) as an ObjectId, or null for anything else. */
export const parseObjectId = (id: string): ObjectId | null => (/^[0-9a-f]{24}$/.test(id) ? new ObjectId(id) : null);

/** A string matched literally inside a regular expression (search queries). */
export const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
