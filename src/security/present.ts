import { OPERATOR_KINDS, SUBJECT_FIELDS, type EnforcementEventDocument, type EnforcementSubject } from './models.js';

const isOperatorKind = (kind: string) => (OPERATOR_KINDS as readonly string[]).includes(kind);

/** In force: an operator's enforcement not undone and not expired (the platform's records are past events). */
export const isActive = (doc: Pick<EnforcementEventDocument, 'kind' | 'undone_at' | 'expires_at'>, now: Date) =>
  isOperatorKind(doc.kind) && doc.undone_at === null && (doc.expires_at === null || doc.expires_at > now);

/** An enforcement event as the API shows it (docs/operations.md, Security enforcement). */
export function presentEnforcement(doc: EnforcementEventDocument, now: Date) {
  const subject: EnforcementSubject = {};
  for (const field of SUBJECT_FIELDS) if (doc.subject[field] !== undefined) subject[field] = doc.subject[field];
  return {
    id: doc._id.toHexString(),
    kind: doc.kind,
    active: isActive(doc, now),
    undoable: isOperatorKind(doc.kind),
    actor: doc.actor ? { type: 'operator' as const, merchant_id: doc.actor.toHexString() } : { type: 'platform' as const, merchant_id: null },
    reason: doc.reason,
    subject,
    client_address: doc.client_address,
    created_at: doc.created_at.toISOString(),
    expires_at: doc.expires_at?.toISOString() ?? null,
    undo: doc.undone_at ? { undone_at: doc.undone_at.toISOString(), undone_by: doc.undone_by?.toHexString() ?? null, reason: doc.undo_reason } : null,
  };
}
export type EnforcementView = ReturnType<typeof presentEnforcement>;
