import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';

export const FORM_SUBMISSIONS = 'form_submissions';

export type FormSubmissionDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  form: string;
  fields: Record<string, string>;
  /** Keyed SHA-256 (HMAC) of the client IP: groups submissions by sender, never the IP itself. */
  ip_hash: string;
  user_agent: string | null;
  created_at: Date;
} & CarriesEvents;

export const formSubmissionIndexes: IndexDeclaration[] = [
  {
    collection: FORM_SUBMISSIONS,
    indexes: [
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, form: 1, _id: 1 }, name: 'store_id_form_id' },
    ],
  },
];

export const formSubmissions = (db: Db) => db.collection<FormSubmissionDocument>(FORM_SUBMISSIONS);
