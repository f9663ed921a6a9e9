import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { z } from 'zod';
import { jobsOf, jobsOfGroup, registryProblems } from '../../jobs/index.js';
import { LISTING_PATH, renderListing } from '../../jobs/listing.js';
import { CheckAppQuality } from '../../src/apps/quality/checks.js';
import { ROOT } from '../../src/localdb/index.js';
import { CORE_ERROR_CODES } from '../../src/errors.js';
import { NoPayload, defineJob, defineSweep, type Job } from '../../src/job.js';
import type { Module } from '../../src/module.js';
import { MODULES } from '../../src/modules.js';

describe('Architecture (src/modules.ts, and what npm run lint refuses)', () => {
  describe('the module list', () => {
    it('names each module once and mounts each path once', () => {
      const names = MODULES.map((m) => m.name);
      expect(new Set(names).size).to.equal(names.length);
      const paths = MODULES.flatMap((m) => (m.routes ?? []).map((r) => r.path));
      expect(new Set(paths).size).to.equal(paths.length);
      // '' is the root: the sign-in pages' router (/, /login, /logout), tried after every other mount.
      expect(paths.filter((p) => p === '')).to.have.length.at.most(1);
      for (const path of paths.filter((p) => p !== '')) expect(path).to.match(/^\/(v1\/|\.well-known$)?[a-z-]*(\/([a-z-]+|:[a-z]+))*$/);
    });

    it('documents in docs/ every public error code and event type the modules declare (their as-const lists, which emit and PlatformError are typed by)', () => {
      const docs = readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => readFileSync(join(ROOT, 'docs', f), 'utf8'))
        .join('\n');
      const codes = [...CORE_ERROR_CODES, ...MODULES.flatMap((m) => m.errorCodes ?? [])];
      const types = MODULES.flatMap((m) => m.eventTypes ?? []);
      expect(new Set(codes).size).to.be.greaterThan(120);
      expect(types.length).to.be.greaterThan(50);
      expect(new Set(types).size, 'each event type is declared by one module').to.equal(types.length);
      expect(
        [...new Set(codes)].filter((c) => !docs.includes(`\`${c}\``)),
        'error codes not in docs/',
      ).to.deep.equal([]);
      expect(
        types.filter((t) => !docs.includes(`\`${t}\``)),
        'event types not in docs/',
      ).to.deep.equal([]);
    });

    it('runs every job the modules declare, each under one name and in a worker group', () => {
      expect(registryProblems()).to.deep.equal([]);
      expect(jobsOf().length).to.be.greaterThan(25);
    });
    it('refuses to hand a worker its jobs while a name is used twice, a job has no worker group or no run, or a recurring one refuses an empty payload', () => {
      const [first] = jobsOf();
      const withProbe = (jobs: Job[]): Module[] => [...MODULES, { name: 'probe', jobs }];
      const twin = defineJob({ name: first!.name, group: 'bulk', payload: NoPayload, run: async () => ({}) });
      expect(registryProblems(withProbe([twin]))).to.deep.equal([`${first!.name}: the name of 2 jobs`]);
      expect(registryProblems(withProbe([first!])), 'one job listed by two modules').to.deep.equal([`${first!.name}: the name of 2 jobs`]);
      const stray = { ...defineSweep('maintenance.stray', async () => 0), group: 'payments' } as unknown as Job;
      expect(registryProblems(withProbe([stray]))).to.deep.equal(['maintenance.stray: no worker group runs it (group "payments")']);
      const runless = { ...defineSweep('maintenance.runless', async () => 0), run: undefined } as unknown as Job;
      expect(registryProblems(withProbe([runless]))).to.deep.equal(['maintenance.runless: no run']);
      const needy = defineJob({
        name: 'maintenance.needy',
        group: 'maintenance',
        payload: z.object({ id: z.string() }),
        every: () => 1000,
        run: async () => ({}),
      });
      expect(registryProblems(withProbe([needy]))).to.deep.equal(['maintenance.needy: recurring, but its payload refuses the empty one it is scheduled with']);
      expect(() => jobsOfGroup('maintenance', withProbe([twin]))).to.throw(/the job registry has problems: .*the name of 2 jobs/);
      expect(jobsOfGroup('maintenance').map((j) => j.name)).to.include.members(['maintenance.sweep-carts', 'maintenance.settle-events']);
      // A job whose run takes dependencies is listed only given them (the apps module is given the rendering domain's check).
      // @ts-expect-error: CheckAppQuality's run needs the app block check
      const ungiven: Module = { name: 'probe', jobs: [CheckAppQuality] };
      expect(ungiven.jobs).to.have.length(1);
    });
    it('lists the jobs in jobs/README.md by worker group, each with the one file that declares it (npm run jobs:listing)', () => {
      expect(readFileSync(LISTING_PATH, 'utf8'), 'jobs/README.md is stale: npm run jobs:listing').to.equal(renderListing());
      const unwritten = defineSweep('maintenance.nowhere', async () => 0);
      expect(() => renderListing([...MODULES, { name: 'probe', jobs: [unwritten] }])).to.throw(/maintenance.nowhere: written in 0 files of src\//);
    });

    it('keeps every hand-written file of src/ and jobs/ at 450 lines or fewer (the map promises it; generated files excepted)', () => {
      const tooLong = (dir: string): string[] =>
        readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
          const path = `${dir}/${entry.name}`;
          if (entry.isDirectory()) return tooLong(path);
          if (!entry.name.endsWith('.ts') || entry.name.endsWith('.generated.ts')) return [];
          const lines = readFileSync(join(ROOT, path), 'utf8').split('\n').length - 1;
          return lines > 450 ? [`${path}: ${lines} lines`] : [];
        });
      expect([...tooLong('src'), ...tooLong('jobs')]).to.deep.equal([]);
    });
  });

  /**
   * Each rule refusing a violation in a probe. Running the linters over the whole tree is
   * `npm run lint`'s (.ci/run runs it before the tests), not this test's: with the type checker
   * that is a minute and a gigabyte on a busy 2-core machine. Linting the first probe loads the
   * project's types too, which there can take minutes: hence the timeout, a bound on a hang.
   */
  describe('npm run lint', function () {
    this.timeout(10 * 60_000);
    const eslint = new ESLint({ cwd: ROOT });
    /**
     * Lint `code` as if it were the file at `filePath`. src/ and jobs/ are linted with type
     * information (typescript-eslint's project service), which knows only the files of the
     * project: a probe takes the place of an existing file (the service lints the text given,
     * not the file on disk, which stays as it is).
     */
    const lintAs = async (filePath: string, code: string) => (await eslint.lintText(code, { filePath: join(ROOT, filePath) }))[0]!.messages;

    it("refuses an import of another domain's inner file, type imports too", async () => {
      const cases: [string, string][] = [
        ['src/coupons/service.ts', "import { createOrder } from '../orders/service.js';\nexport const x = createOrder;\n"],
        ['src/coupons/service.ts', "import type { OrderView } from '../orders/present.js';\nexport type X = OrderView;\n"],
        ['jobs/index.ts', "import { deliverMessage } from '../src/messages/service.js';\nexport const x = deliverMessage;\n"],
        // A feature folder of a domain is inside it too, from either side.
        ['src/coupons/service.ts', "import { listCatalog } from '../apps/app-store/service.js';\nexport const x = listCatalog;\n"],
        ['src/apps/app-store/service.ts', "import { createOrder } from '../../orders/service.js';\nexport const x = createOrder;\n"],
      ];
      for (const [filePath, code] of cases) {
        expect(
          (await lintAs(filePath, code)).map((m) => m.ruleId),
          code,
        ).to.deep.equal(['@typescript-eslint/no-restricted-imports']);
      }
      const allowed = await lintAs('src/coupons/service.ts', "import { findVariants } from '../catalog/index.js';\nexport const x = findVariants;\n");
      expect(allowed).to.deep.equal([]);
      // Inside a domain, its feature folders use each other directly.
      const sibling = await lintAs('src/apps/app-store/service.ts', "import { apps } from '../partners/models.js';\nexport const x = apps;\n");
      expect(sibling).to.deep.equal([]);
    });

    it('refuses a domain in the core and the http toolkit, and the top floor below it', async () => {
      const cases: [string, string][] = [
        ['src/http/validate.ts', "import type { StoreView } from '../stores/index.js';\nexport type X = StoreView;\n"],
        ['src/queue.ts', "import { catalogModule } from './catalog/index.js';\nexport const x = catalogModule;\n"],
        ['src/coupons/service.ts', "import { MODULES } from '../modules.js';\nexport const x = MODULES;\n"],
      ];
      for (const [filePath, code] of cases) {
        expect(
          (await lintAs(filePath, code)).map((m) => m.ruleId),
          `${filePath}: ${code}`,
        ).to.include('@typescript-eslint/no-restricted-imports');
      }
    });

    it("refuses Agenda, and Agenda's collection, outside the queue facade and a job named by a string (src/queue.ts is the one door)", async () => {
      const cases: [string, string, string][] = [
        ['src/messages/service.ts', "import { Agenda } from 'agenda';\nexport const x = Agenda;\n", 'no-restricted-imports'],
        ['jobs/index.ts', "import { MongoBackend } from '@agendajs/mongo-backend';\nexport const x = MongoBackend;\n", 'no-restricted-imports'],
        [
          'src/webhooks/jobs.ts',
          "import type { Platform } from '../platform.js';\nexport const x = (p: Platform & { jobs: { agenda: unknown } }) => p.jobs.agenda;\n",
          'no-restricted-syntax',
        ],
        [
          'src/themes/jobs.ts',
          "import type { Platform } from '../platform.js';\nexport const x = (p: Platform) => p.jobs.enqueue('themes.review' as never, {});\n",
          'no-restricted-syntax',
        ],
        [
          'jobs/index.ts',
          "import type { Platform } from '../src/platform.js';\nexport const x = (p: Platform, n: string) => p.jobs.cancel(`${n}` as never);\n",
          'no-restricted-syntax',
        ],
        [
          'src/operations/queue-diagnostics.ts',
          "import type { Platform } from '../platform.js';\nexport const x = (p: Platform) => p.db.collection('agendaJobs').countDocuments({});\n",
          'no-restricted-syntax',
        ],
        [
          'src/operations/models.ts',
          "import type { Db } from 'mongodb';\nexport const jobs = (db: Db) => db.collection('agendaJobs');\n",
          'no-restricted-syntax',
        ],
      ];
      for (const [filePath, code, rule] of cases) {
        expect(
          (await lintAs(filePath, code)).map((m) => m.ruleId),
          `${filePath}: ${code}`,
        ).to.include(rule);
      }
      const facade = await lintAs('src/queue.ts', readFileSync(join(ROOT, 'src/queue.ts'), 'utf8'));
      expect(facade, 'the facade itself may use Agenda').to.deep.equal([]);
      const byContract = await lintAs(
        'src/themes/jobs.ts',
        "import type { Platform } from '../platform.js';\nimport { ReviewThemeVersion } from './review/service.js';\nexport const x = (p: Platform) => p.jobs.enqueue(ReviewThemeVersion, { review_id: 'a' });\n",
      );
      expect(byContract).to.deep.equal([]);
    });

    it("refuses a collection declared outside its owner's models.ts", async () => {
      const declare = "import type { Db } from 'mongodb';\nexport const things = (db: Db) => db.collection<{ _id: string }>('things');\n";
      expect((await lintAs('src/coupons/service.ts', declare)).map((m) => m.ruleId)).to.deep.equal(['no-restricted-syntax']);
      expect((await lintAs('src/apps/oauth/grants.ts', declare)).map((m) => m.ruleId)).to.deep.equal(['no-restricted-syntax']);
      expect(await lintAs('src/coupons/models.ts', declare)).to.deep.equal([]);
      expect(await lintAs('src/apps/oauth/models.ts', declare)).to.deep.equal([]);
    });

    it('refuses an open string key on a plain object (emporium/no-open-key-lookup), exactly where fixtures/lint/open-key-lookup.ts marks it', async () => {
      const fixture = readFileSync(join(ROOT, 'fixtures/lint/open-key-lookup.ts'), 'utf8');
      const marked = fixture.split('\n').flatMap((line, i) => (line.endsWith('// flagged') ? [i + 1] : []));
      expect(marked.length).to.be.greaterThan(8);
      // In a domain, in the core, and in jobs/: the rule holds everywhere the platform's code is.
      for (const filePath of ['src/coupons/service.ts', 'src/http/validate.ts', 'jobs/index.ts']) {
        const messages = await lintAs(filePath, fixture);
        expect(
          messages.filter((m) => m.ruleId !== 'emporium/no-open-key-lookup'),
          filePath,
        ).to.deep.equal([]);
        expect(
          messages.map((m) => m.line),
          filePath,
        ).to.deep.equal(marked);
      }
    });

    it('refuses an import cycle (dependency-cruiser)', () => {
      const cycle = spawnSync(join(ROOT, 'node_modules/.bin/depcruise'), ['fixtures/lint/cycle', '--config', '.dependency-cruiser.cjs'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      });
      expect(cycle.status).to.not.equal(0);
      // CI runs with a colour-capable environment; compare the text without escape codes.
      expect(stripVTControlCharacters(cycle.stdout)).to.match(/error no-cycle: fixtures\/lint\/cycle\/a\.ts/);
    });
  });
});
