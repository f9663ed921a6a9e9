import type { Module } from '../module.js';
import { maintenanceJobs } from './jobs.js';

export { SWEEPS, type SweepName } from './service.js';

/** Housekeeping: the recurring sweeps of expired and stranded records. */
export const maintenanceModule: Module = { name: 'maintenance', jobs: maintenanceJobs };
