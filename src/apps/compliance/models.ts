import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';
import type { CarriesEvents } from '../../events/index.js';
import type { ComplianceTopic } from '../manifest/types.js';

export const COMPLIANCE_REQUESTS = 'compliance_requests';

export type ComplianceSource = 'merchant' | 'uninstall';

export type ComplianceRequestDocument = {
  _id: ObjectId;
  /** Unique: `merchant:<merchant id>:<store id>:<topic>:<Idempotency-Key>` or `uninstall:<installation id>:<grant id>`. */
  key: string;
  store_id: ObjectId;
  topic: ComplianceTopic;
  source: ComplianceSource;
  /** The merchant account that asked (null for the platform's own shop.redact after an uninstall). */
  requested_by: ObjectId | null;
  customer: { id: string | null; email: string | null; phone: string | null } | null;
  /** customers.data_request: the orders requested; customers.redact: the orders to redact. */
  order_ids: string[];
  /** The apps told: one event each. */
  apps: { app_id: ObjectId; handle: string; installation_id: ObjectId; event_id: ObjectId }[];
  created_at: Date;
} & CarriesEvents;

export const complianceIndexes: IndexDeclaration[] = [
  {
    collection: COMPLIANCE_REQUESTS,
    indexes: [
      { key: { key: 1 }, name: 'key_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
    ],
  },
];

export const complianceRequests = (db: Db) => db.collection<ComplianceRequestDocument>(COMPLIANCE_REQUESTS);
