import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';

export const ENFORCEMENT_EVENTS = 'enforcement_events';

/** What an operator enforces: in force until undone (and, for a block, until it expires). */
export const OPERATOR_KINDS = ['app_suspended', 'address_range_blocked'] as const;
/** What the platform enforces by itself and records as it happens (docs/operations.md, Security enforcement). */
export const PLATFORM_KINDS = [
  'login_locked_out',
  'oauth_code_replayed',
  'refresh_token_replayed',
  'payment_signature_failed',
  'outbound_target_refused',
  'request_budget_exceeded',
] as const;
export const ENFORCEMENT_KINDS = [...OPERATOR_KINDS, ...PLATFORM_KINDS] as const;
export type OperatorKind = (typeof OPERATOR_KINDS)[number];
export type PlatformKind = (typeof PLATFORM_KINDS)[number];
export type EnforcementKind = OperatorKind | PlatformKind;

/** What an enforcement is about, each field as the API writes it (ids as 24-hex strings). */
export const SUBJECT_FIELDS = [
  'app_id',
  'installation_id',
  'store_id',
  'merchant_id',
  'order_id',
  'purchase_id',
  'code_id',
  'family_id',
  'email',
  'host',
  'provider',
  'cidr',
] as const;
export type EnforcementSubject = Partial<Record<(typeof SUBJECT_FIELDS)[number], string>>;

/**
 * One enforcement: recorded by the platform as it refused or revoked something (`actor` null), or
 * taken by an operator (`actor` the operator's merchant id), who or another may undo it.
 */
export type EnforcementEventDocument = {
  _id: ObjectId;
  kind: EnforcementKind;
  /** The operator who enforced it; null: the platform. */
  actor: ObjectId | null;
  reason: string;
  subject: EnforcementSubject;
  /** The client address of the request it refused or came from, when there was one. */
  client_address: string | null;
  created_at: Date;
  /** A block's end (`expires_in_minutes`); null: until undone. */
  expires_at: Date | null;
  undone_at: Date | null;
  undone_by: ObjectId | null;
  undo_reason: string | null;
};

export const securityIndexes: IndexDeclaration[] = [
  {
    collection: ENFORCEMENT_EVENTS,
    indexes: [
      // What is in force (read by every process at most once a second): operator kinds not undone.
      { key: { kind: 1, undone_at: 1 }, name: 'kind_undone_at' },
      // The list filtered by kind, newest first.
      { key: { kind: 1, _id: -1 }, name: 'kind_id' },
    ],
  },
];

export const enforcementEvents = (db: Db) => db.collection<EnforcementEventDocument>(ENFORCEMENT_EVENTS);
