import { ObjectId } from 'mongodb';
import { z } from 'zod';
import { IdString, parseObjectId } from '../../ids.js';
import { defineJob } from '../../job.js';
import type { Platform } from '../../platform.js';
import { claimLeaseAt, leaseFreeAt, settleLeaseAt } from '../../work/lease.js';
import { installations, type ExtensionRevocation, type InstallationDocument } from '../installations/models.js';
import { registrations, type RegistrationState } from './models.js';

/** The marker an uninstall's write sets: the extensions worker has a revocation to do. */
export const pendingRevocation = (now: Date): ExtensionRevocation => ({
  status: 'pending',
  requested_at: now,
  lease_until: null,
  lease_owner: null,
  runs: 0,
  rows_revoked: 0,
  done_at: null,
});

/** Where an installation keeps its revocation's lease (src/work/lease.ts, a lease under a prefix). */
const REVOCATION = 'extension_revocation';

/** Revocations the sweep takes up in one run. */
const SWEEP_BATCH = 100;

/**
 * The extensions worker's revocation (docs/extensions.md, Revocation): every live row of the
 * installation whose grant is no longer active (all of them after an uninstall; an earlier
 * grant's after a quick re-install) becomes `revoked` with `revoked_at`, once. Taken under a
 * lease on the installation's marker, so two workers never run it at once and a dead worker's is
 * taken again when its lease runs out; each write revokes only rows still live, so a run that
 * stops half-way leaves rows either live or revoked, and the next run revokes the rest.
 * Correctness does not wait for it: resolution already ignores rows of an inactive grant.
 */
export async function runRevocation(platform: Platform, installationId: string): Promise<'revoked' | 'not_due'> {
  const id = parseObjectId(installationId);
  if (!id) return 'not_due';
  const owner = platform.process.id;
  const { revokeLeaseMs, revokeBatchSize, revokePauseMs } = platform.config.extensions;
  const held = await claimLeaseAt(
    installations(platform.db),
    REVOCATION,
    { owner, ms: revokeLeaseMs },
    platform.clock.now(),
    { _id: id, 'extension_revocation.status': 'pending' },
    { inc: { 'extension_revocation.runs': 1 } },
  );
  if (!held?.extension_revocation) return 'not_due';
  const lease = { _id: id, lease_until: held.extension_revocation.lease_until };
  platform.log.info({ event: 'extensions.revoke_started', installation_id: installationId, run: held.extension_revocation.runs });
  let revoked = 0;
  for (;;) {
    const batch = await registrations(platform.db)
      .find(liveRowsOf(held), { projection: { _id: 1, state: 1 } })
      .limit(revokeBatchSize)
      .toArray();
    if (batch.length === 0) break;
    const at = platform.clock.now();
    for (const state of ['enabled', 'disabled'] as const) {
      const ids = batch.filter((r) => r.state === state).map((r) => r._id);
      if (ids.length === 0) continue;
      const written = await registrations(platform.db).updateMany(
        { _id: { $in: ids }, revoked_at: null, state },
        {
          $set: {
            state: 'revoked' as RegistrationState,
            revoked_at: at,
            updated_at: at,
            last_transition: { from: state, to: 'revoked', at, by: { type: 'platform', id: null }, reason: 'uninstalled' },
          },
          $inc: { version: 1 },
        },
      );
      revoked += written.modifiedCount;
    }
    platform.log.info({ event: 'extensions.revoke_progress', installation_id: installationId, revoked });
    if (revokePauseMs > 0) await new Promise((resolve) => setTimeout(resolve, revokePauseMs));
  }
  // Done, if the lease is still the one taken (a run that lost it leaves the marker to its taker).
  const settled = await settleLeaseAt(
    installations(platform.db),
    REVOCATION,
    lease,
    owner,
    {
      $set: { 'extension_revocation.status': 'done', 'extension_revocation.done_at': platform.clock.now() },
      $inc: { 'extension_revocation.rows_revoked': revoked },
    },
    { 'extension_revocation.status': 'pending' },
  );
  if (!settled) return 'not_due';
  platform.log.info({ event: 'extensions.revoke_completed', installation_id: installationId, revoked });
  return 'revoked';
}

/** Runs the revocation (`runRevocation`); declared beside it, enqueued by an uninstall (docs/extensions.md, Revocation). */
export const RevokeExtensions = defineJob({
  name: 'extensions.revoke',
  group: 'extensions',
  concurrency: 2,
  payload: z.object({ installation_id: IdString('installation') }),
  run: async (platform, { installation_id }) => ({ installation_id, outcome: await runRevocation(platform, installation_id) }),
});

/** The rows a revocation revokes: live rows of every grant but the active one (all of them once uninstalled). */
function liveRowsOf(installation: InstallationDocument) {
  return {
    installation_id: installation._id,
    revoked_at: null,
    ...(installation.status === 'active' ? { grant_id: { $ne: installation.grant_id } } : {}),
  };
}

/** The backstop: revocations pending with nobody holding them (a lost job, a dead worker): the sweep runs them. Returns how many it completed. */
export async function sweepRevocations(platform: Platform): Promise<number> {
  const now = platform.clock.now();
  const due = await installations(platform.db)
    .find({ 'extension_revocation.status': 'pending', ...leaseFreeAt(REVOCATION, now) }, { projection: { _id: 1 } })
    .limit(SWEEP_BATCH)
    .toArray();
  let completed = 0;
  for (const { _id } of due) if ((await runRevocation(platform, (_id as ObjectId).toHexString())) === 'revoked') completed++;
  return completed;
}
