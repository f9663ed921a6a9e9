import { deliverMessageJob } from './deliver-message.js';
import { maintenanceSweepJobs } from './maintenance-sweeps.js';
import { LEASE_OWNER, dispatchDeliveryJob, fanOutEventJob, webhookSweepJob } from './webhook-jobs.js';
import { startInternalService } from '../src/webhooks/internal.js';
import type { Platform } from '../src/platform.js';
import type { JobHandler } from './types.js';

/**
 * The place to read what runs where: each Procfile worker runs exactly the jobs of its
 * group, so each kind of work scales on its own. Job names are a public contract.
 *
 * - webhooks:    outbound deliveries to the outside world: partner webhooks (fan-out,
 *                signed delivery, retries, the sweeper) and merchant messages (sign-in codes,
 *                password resets). Also serves the internal dispatch routes.
 * - bulk:        admin bulk operations (JSONL exports); filled by the bulk issue.
 * - themes:      theme package review checks; filled by the themes issue.
 * - extensions:  extension/function lifecycle revocation; filled by the app platform issue.
 * - maintenance: recurring sweeps of expired and stranded records.
 */
export const JOB_GROUPS = {
  webhooks: [fanOutEventJob, dispatchDeliveryJob, webhookSweepJob, deliverMessageJob],
  bulk: [],
  themes: [],
  extensions: [],
  maintenance: maintenanceSweepJobs,
} as const satisfies Record<string, readonly JobHandler[]>;

export type JobGroup = keyof typeof JOB_GROUPS;

/** Services a group's process runs beside its jobs (closed before the jobs drain). */
export const GROUP_SERVICES: Partial<Record<JobGroup, (platform: Platform) => Promise<{ close(): Promise<void> }>>> = {
  webhooks: (platform) => startInternalService(platform, LEASE_OWNER),
};

export const isJobGroup = (name: string): name is JobGroup => Object.hasOwn(JOB_GROUPS, name);

export type { JobHandler } from './types.js';
