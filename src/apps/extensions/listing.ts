import type { ScopedStore } from '../../http/context.js';
import type { Platform } from '../../platform.js';
import { LIFECYCLE_CONTRACT_VERSION, MANIFEST_SCHEMA_VERSION } from '../manifest/types.js';
import { apps } from '../partners/models.js';
import { reviewChecklists, type ReviewChecklist } from '../quality/checklist.js';
import { presentRegistration, presentTransition, type RegistrationView, type TransitionView } from './present.js';
import { installationRows, visibleInstallation, type RegistryCaller } from './registry.js';
import type { RegistrationDocument, RegistrationState } from './models.js';

/** The theme bundle schema and renderer versions a theme app block is rendered by (spec 9). */
const THEME_CONTRACT = { theme_bundle_schema: '2026-05-json-contract', renderer: '1.0.0' } as const;

export type RegistryListing = {
  extensions: RegistrationView[];
  functions: RegistrationView[];
  lifecycle: {
    contract_version: typeof LIFECYCLE_CONTRACT_VERSION;
    installation: { id: string; status: string; installed_at: string; uninstalled_at: string | null };
    counts: Record<RegistrationState, number>;
    last_transition: (TransitionView & { registration_id: string; handle: string }) | null;
    revocation: { status: 'pending' | 'done'; requested_at: string; done_at: string | null; rows_revoked: number } | null;
  };
  developer_handoff: {
    app: { id: string; handle: string | null; name: string | null };
    store: { id: string; subdomain: string };
    installation_id: string;
    handles: { kind: string; handle: string; target: string; state: RegistrationState }[];
    enabled_surfaces: string[];
    function_run_log: string;
    contract_versions: { manifest_schema: string; lifecycle: string; theme_bundle_schema: string; renderer: string };
  };
  /** The app's quality gates (docs/extensions.md, Quality gates); null only for an app that no longer exists. */
  review_checklist: ReviewChecklist | null;
};

/**
 * `GET /v1/app-store/installations/:id/extensions` (docs/extensions.md): the installation's rows
 * (extensions and Checkout Functions apart), its lifecycle snapshot, the developer handoff and the
 * app review checklist.
 */
export async function listRegistry(platform: Platform, store: ScopedStore, installationId: string, caller: RegistryCaller): Promise<RegistryListing> {
  const installation = await visibleInstallation(platform, store.id, installationId, caller);
  const rows = await installationRows(platform, installation);
  const app = await apps(platform.db).findOne({ _id: installation.app_id });
  const checklist = app ? (await reviewChecklists(platform, [app])).get(app._id.toHexString())! : null;
  const current = rows.filter((r) => r.grant_id.equals(installation.grant_id));
  const counts: Record<RegistrationState, number> = { enabled: 0, disabled: 0, revoked: 0 };
  for (const r of current) counts[r.state]++;
  const last = rows.reduce<RegistrationDocument | null>((a, r) => (!a || r.last_transition.at > a.last_transition.at ? r : a), null);
  const revocation = installation.extension_revocation ?? null;
  const live = current.filter((r) => r.state === 'enabled');
  return {
    extensions: rows.filter((r) => r.kind !== 'checkout_function').map(presentRegistration),
    functions: rows.filter((r) => r.kind === 'checkout_function').map(presentRegistration),
    lifecycle: {
      contract_version: LIFECYCLE_CONTRACT_VERSION,
      installation: {
        id: installation._id.toHexString(),
        status: installation.status,
        installed_at: installation.installed_at.toISOString(),
        uninstalled_at: installation.uninstalled_at?.toISOString() ?? null,
      },
      counts,
      last_transition: last ? { registration_id: last._id.toHexString(), handle: last.handle, ...presentTransition(last.last_transition) } : null,
      revocation: revocation
        ? {
            status: revocation.status,
            requested_at: revocation.requested_at.toISOString(),
            done_at: revocation.done_at?.toISOString() ?? null,
            rows_revoked: revocation.rows_revoked,
          }
        : null,
    },
    developer_handoff: {
      app: { id: installation.app_id.toHexString(), handle: app?.handle ?? null, name: app?.published?.name ?? app?.name ?? null },
      store: { id: store.id, subdomain: store.subdomain },
      installation_id: installation._id.toHexString(),
      handles: current.map((r) => ({ kind: r.kind, handle: r.handle, target: r.target, state: r.state })),
      enabled_surfaces: [...new Set(live.map((r) => `${r.kind}:${r.target}`))].sort(),
      function_run_log: `/v1/app-store/installations/${installation._id.toHexString()}/functions/runs`,
      contract_versions: { manifest_schema: MANIFEST_SCHEMA_VERSION, lifecycle: LIFECYCLE_CONTRACT_VERSION, ...THEME_CONTRACT },
    },
    review_checklist: checklist,
  };
}
