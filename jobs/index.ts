import { deliverMessageJob } from './deliver-message.js';
import { maintenanceSweepJobs } from './maintenance-sweeps.js';
import type { JobHandler } from './types.js';

/**
 * The place to read what runs where: each Procfile worker runs exactly the jobs of its
 * group, so each kind of work scales on its own. Job names are a public contract.
 *
 * - webhooks:    outbound deliveries to the outside world. Today: merchant messages
 *                (sign-in codes, password resets). Partner webhooks join it next.
 * - bulk:        admin bulk operations (JSONL exports); filled by the bulk issue.
 * - themes:      theme package review checks; filled by the themes issue.
 * - extensions:  extension/function lifecycle revocation; filled by the app platform issue.
 * - maintenance: recurring sweeps of expired and stranded records.
 */
export const JOB_GROUPS = {
  webhooks: [deliverMessageJob],
  bulk: [],
  themes: [],
  extensions: [],
  maintenance: maintenanceSweepJobs,
} as const satisfies Record<string, readonly JobHandler[]>;

export type JobGroup = keyof typeof JOB_GROUPS;

export const isJobGroup = (name: string): name is JobGroup => Object.hasOwn(JOB_GROUPS, name);

export type { JobHandler } from './types.js';
