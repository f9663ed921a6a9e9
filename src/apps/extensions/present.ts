import type { RegistrationDocument, Transition } from './models.js';
import { stamps } from '../../allow-list.js';

export type TransitionView = {
  from: Transition['from'];
  to: Transition['to'];
  at: string;
  by: { type: 'merchant' | 'platform'; id: string | null };
  reason: Transition['reason'];
};

export const presentTransition = (t: Transition): TransitionView => ({
  from: t.from,
  to: t.to,
  at: t.at.toISOString(),
  by: { type: t.by.type, id: t.by.id?.toHexString() ?? null },
  reason: t.reason,
});

/** A registry row as the merchant and the app see it (docs/extensions.md, The registry). */
export const presentRegistration = (r: RegistrationDocument) => ({
  id: r._id.toHexString(),
  installation_id: r.installation_id.toHexString(),
  app_id: r.app_id.toHexString(),
  kind: r.kind,
  handle: r.handle,
  name: r.name,
  target: r.target,
  config: r.config,
  settings: r.settings,
  blocking: r.blocking,
  state: r.state,
  revoked_at: r.revoked_at?.toISOString() ?? null,
  manifest_schema_version: r.manifest_schema_version,
  app_version_id: r.app_version_id.toHexString(),
  last_transition: presentTransition(r.last_transition),
  version: r.version,
  ...stamps(r),
});
export type RegistrationView = ReturnType<typeof presentRegistration>;
