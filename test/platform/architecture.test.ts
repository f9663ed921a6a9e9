import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { HANDLERS, jobsOfGroup, registryProblems } from '../../jobs/index.js';
import { ROOT } from '../../src/localdb/index.js';
import { CORE_ERROR_CODES } from '../../src/errors.js';
import type { Module } from '../../src/module.js';
import { MODULES } from '../../src/modules.js';
import { NoPayload, defineJob, defineSweep } from '../../src/queue.js';

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

    it('has a handler in jobs/ for every job a module declares, and no other', () => {
      expect(registryProblems()).to.deep.equal([]);
    });
    it('refuses to hand a worker its jobs while a contract lacks a handler, a handler lacks a contract, or a name is used twice', () => {
      const [first, ...others] = HANDLERS;
      const orphan = { contract: defineSweep('maintenance.orphan'), handle: first!.handle };
      const twin = defineJob({ name: first!.contract.name, group: 'bulk', payload: NoPayload });
      const modules: Module[] = [...MODULES, { name: 'probe', jobs: [twin] }];
      expect(registryProblems(MODULES, others)).to.deep.equal([`${first!.contract.name}: no handler in jobs/`]);
      expect(registryProblems(MODULES, [...HANDLERS, orphan])).to.deep.equal(['maintenance.orphan: no module declares this contract']);
      expect(registryProblems(modules, [...HANDLERS, { contract: twin, handle: first!.handle }])).to.deep.equal([
        `${first!.contract.name}: the name of 2 contracts`,
      ]);
      expect(() => jobsOfGroup('maintenance', MODULES, others)).to.throw(/the job registry does not match the modules: .*no handler in jobs/);
      expect(jobsOfGroup('maintenance').map((j) => j.contract.name)).to.include.members(['maintenance.sweep-carts', 'maintenance.settle-events']);
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
        ['jobs/messages.ts', "import { deliverMessage } from '../src/messages/service.js';\nexport const x = deliverMessage;\n"],
        // A feature folder of a domain is inside it too, from either side.
        ['src/coupons/service.ts', "import { listCatalog } from '../apps/catalog/service.js';\nexport const x = listCatalog;\n"],
        ['src/apps/catalog/service.ts', "import { createOrder } from '../../orders/service.js';\nexport const x = createOrder;\n"],
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
      const sibling = await lintAs('src/apps/catalog/service.ts', "import { apps } from '../partners/store.js';\nexport const x = apps;\n");
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

    it('refuses Agenda outside the queue facade and a job named by a string (src/queue.ts is the one door)', async () => {
      const cases: [string, string, string][] = [
        ['src/messages/service.ts', "import { Agenda } from 'agenda';\nexport const x = Agenda;\n", 'no-restricted-imports'],
        ['jobs/messages.ts', "import { MongoBackend } from '@agendajs/mongo-backend';\nexport const x = MongoBackend;\n", 'no-restricted-imports'],
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
          'jobs/messages.ts',
          "import type { Platform } from '../src/platform.js';\nexport const x = (p: Platform, n: string) => p.jobs.cancel(`${n}` as never);\n",
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
        "import type { Platform } from '../platform.js';\nimport { ReviewThemeVersion } from './jobs.js';\nexport const x = (p: Platform) => p.jobs.enqueue(ReviewThemeVersion, { review_id: 'a' });\n",
      );
      expect(byContract).to.deep.equal([]);
    });

    it("refuses a collection declared outside its owner's store.ts", async () => {
      const declare = "import type { Db } from 'mongodb';\nexport const things = (db: Db) => db.collection<{ _id: string }>('things');\n";
      expect((await lintAs('src/coupons/service.ts', declare)).map((m) => m.ruleId)).to.deep.equal(['no-restricted-syntax']);
      expect((await lintAs('src/apps/oauth/grants.ts', declare)).map((m) => m.ruleId)).to.deep.equal(['no-restricted-syntax']);
      expect(await lintAs('src/coupons/store.ts', declare)).to.deep.equal([]);
      expect(await lintAs('src/apps/oauth/store.ts', declare)).to.deep.equal([]);
    });

    it('refuses an open string key on a plain object (emporium/no-open-key-lookup), exactly where fixtures/lint/open-key-lookup.ts marks it', async () => {
      const fixture = readFileSync(join(ROOT, 'fixtures/lint/open-key-lookup.ts'), 'utf8');
      const marked = fixture.split('\n').flatMap((line, i) => (line.endsWith('// flagged') ? [i + 1] : []));
      expect(marked.length).to.be.greaterThan(8);
      // In a domain, in the core, and in jobs/: the rule holds everywhere the platform's code is.
      for (const filePath of ['src/coupons/service.ts', 'src/http/validate.ts', 'jobs/messages.ts']) {
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
