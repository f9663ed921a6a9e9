import { HANDLERS } from '../../jobs/index.js';
import type { Platform } from '../../src/platform.js';

/** Run one recurring sweep's handler, by its public job name, as the maintenance worker would: how many records it changed. */
export async function sweep(name: string, platform: Platform): Promise<number> {
  const job = HANDLERS.find((h) => h.contract.name === name && h.contract.group === 'maintenance');
  if (!job) throw new Error(`no maintenance job named ${name}`);
  return (await job.handle(platform, {})).affected as number;
}

/** Run every sweep of the maintenance group once, in the registry's order. */
export async function sweepAll(platform: Platform): Promise<void> {
  for (const job of HANDLERS.filter((h) => h.contract.group === 'maintenance')) await job.handle(platform, {});
}
