import { jobsOfGroup } from '../../jobs/index.js';
import type { Platform } from '../../src/platform.js';

/** Run one recurring sweep's handler, by its public job name, as the maintenance worker would: how many records it changed. */
export async function sweep(name: string, platform: Platform): Promise<number> {
  const job = jobsOfGroup('maintenance').find((j) => j.name === name);
  if (!job) throw new Error(`no maintenance job named ${name}`);
  return (await job.run(platform, {})).affected as number;
}

/** Run every sweep of the maintenance group once, in the registry's order. */
export async function sweepAll(platform: Platform): Promise<void> {
  for (const job of jobsOfGroup('maintenance')) await job.run(platform, {});
}
