import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../src/localdb/index.js';
import type { Module } from '../src/module.js';
import { MODULES } from '../src/modules.js';
import { WORKER_GROUPS } from '../src/queue.js';
import { jobsOf } from './index.js';

/**
 * jobs/README.md, generated from the module list: each worker group's jobs, and the one file of
 * src/ that declares each (the only one that writes its name: job names are written once).
 * `npm run jobs:listing` writes it; the architecture test fails while it is stale.
 */

export const LISTING_PATH = join(ROOT, 'jobs/README.md');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The listing; throws when a job's name is written in no file of src/, or in several. */
export function renderListing(modules: readonly Module[] = MODULES): string {
  const sources = sourceFiles(join(ROOT, 'src')).map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }));
  const declaredIn = (name: string) => {
    const files = sources.filter((s) => s.text.includes(`'${name}'`)).map((s) => s.path);
    if (files.length !== 1) throw new Error(`${name}: written in ${files.length} files of src/ (${files.join(', ')}), not one`);
    return files[0]!;
  };
  const jobs = jobsOf(modules);
  const sections = WORKER_GROUPS.map((group) => {
    const rows = jobs
      .filter((job) => job.group === group)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((job) => {
        const file = declaredIn(job.name);
        return `| \`${job.name}\` | ${job.every ? 'recurring' : 'one-off'} | ${job.concurrency} | [${file}](../${file}) |`;
      });
    return [`## ${group}`, '', `\`node dist/src/worker.js --jobs ${group}\``, '', '| Job | Kind | At once | Declared in |', '|---|---|---|---|', ...rows].join(
      '\n',
    );
  });
  return [
    '# Jobs: which worker runs what',
    '',
    'Generated from the module list by `npm run jobs:listing` (jobs/listing.ts): do not edit. Each job is',
    'declared once, with its run, by the domain that owns the work (docs/architecture.md, "Add a job"); a worker',
    'runs the jobs of its group (jobs/index.ts). "At once": how many one worker runs at a time.',
    '',
    ...sections.flatMap((s) => [s, '']),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(LISTING_PATH, renderListing());
  console.log(`wrote ${relative(process.cwd(), LISTING_PATH)}`);
}
