import type { Job } from '../src/job.js';
import { isWorkerGroup, type Module, type WorkerGroup } from '../src/module.js';
import { MODULES } from '../src/modules.js';

/**
 * The workers' registry: which worker group runs which jobs, read from the module list (each
 * module's `jobs`, each job declared once, with its run, by its domain). Each worker runs exactly
 * its group's jobs, so each kind of work scales on its own. jobs/README.md is the same list as a
 * table, with where each job is declared (generated: jobs/listing.ts).
 */

/** Every module's jobs, in the module list's order. */
export const jobsOf = (modules: readonly Module[] = MODULES): Job[] => modules.flatMap((m) => m.jobs ?? []);

/**
 * What is wrong with the modules' jobs: a name used by two jobs (or one job listed twice), a job
 * whose group no worker runs, a job without a run, a recurring job whose payload schema refuses
 * the empty payload it is scheduled with. A worker refuses to start while any is left (and a test
 * asserts none).
 */
export function registryProblems(modules: readonly Module[] = MODULES): string[] {
  const jobs = jobsOf(modules);
  const uses = new Map<string, number>();
  for (const job of jobs) uses.set(job.name, (uses.get(job.name) ?? 0) + 1);
  return [
    ...[...uses].filter(([, n]) => n > 1).map(([name, n]) => `${name}: the name of ${n} jobs`),
    ...jobs.filter((job) => !isWorkerGroup(String(job.group))).map((job) => `${job.name}: no worker group runs it (group "${String(job.group)}")`),
    ...jobs.filter((job) => typeof job.run !== 'function').map((job) => `${job.name}: no run`),
    ...jobs
      .filter((job) => job.every && !job.payload.safeParse({}).success)
      .map((job) => `${job.name}: recurring, but its payload refuses the empty one it is scheduled with`),
  ];
}

/** The jobs a worker of this group runs; throws when the registry has a problem. */
export function jobsOfGroup(group: WorkerGroup, modules: readonly Module[] = MODULES): Job[] {
  const problems = registryProblems(modules);
  if (problems.length) throw new Error(`the job registry has problems: ${problems.join('; ')}`);
  return jobsOf(modules).filter((job) => job.group === group);
}
