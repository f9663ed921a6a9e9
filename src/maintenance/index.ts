import type { Module } from '../module.js';
import { maintenanceJobs } from './jobs.js';

export { SettleEvents, SweepIdempotencyRecords } from './jobs.js';

/**
 * Housekeeping of the core's own records. Expiry is a field checked in code and enforced by
 * sweeps, because FerretDB has no TTL indexes (and correctness must not depend on them anyway):
 * every read of a session, code or token already ignores expired documents; sweeps only reclaim
 * space. Each domain's sweeps are its own recurring jobs (docs/processes.md, "Jobs").
 */
export const maintenanceModule: Module = { name: 'maintenance', jobs: maintenanceJobs };
