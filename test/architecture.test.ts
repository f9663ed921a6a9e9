import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { registryProblems } from '../jobs/index.js';
import { ROOT } from '../src/localdb/index.js';
import { MODULES } from '../src/modules.js';

/** Every .ts file under a folder of the repository. */
const sources = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

describe('Architecture (src/modules.ts, and what npm run lint refuses)', function () {
  this.timeout(60_000);

  describe('the module list', () => {
    it('names each module once and mounts each path once', () => {
      const names = MODULES.map((m) => m.name);
      expect(new Set(names).size).to.equal(names.length);
      const paths = MODULES.flatMap((m) => (m.routes ?? []).map((r) => r.path));
      expect(new Set(paths).size).to.equal(paths.length);
      for (const path of paths) expect(path).to.match(/^\/(v1\/|\.well-known$)?[a-z-]*(\/([a-z-]+|:[a-z]+))*$/);
    });

    it('declares every event type that src/ records, and only those', () => {
      const declared = new Set(MODULES.flatMap((m) => m.eventTypes ?? []));
      const emitted = new Set<string>();
      for (const file of sources('src')) {
        for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(/\.(?:emit|pending)\(\s*'([a-z_]+(?:\.[a-z_]+)+)'/g)) emitted.add(match[1]!);
      }
      expect(emitted.size).to.be.greaterThan(30);
      expect([...emitted].filter((t) => !declared.has(t)), 'emitted but not declared').to.deep.equal([]);
      expect([...declared].filter((t) => !emitted.has(t)), 'declared but never emitted').to.deep.equal([]);
    });

    it('has a handler in jobs/ for every job a module declares, and no other', () => {
      expect(registryProblems()).to.deep.equal([]);
    });
  });

  describe('npm run lint', () => {
    const eslint = new ESLint({ cwd: ROOT });

    it('refuses an import of another domain\'s inner file, type imports too', async () => {
      const cases: [string, string][] = [
        ['src/coupons/probe.ts', "import { createOrder } from '../orders/service.js';\nexport const x = createOrder;\n"],
        ['src/coupons/probe.ts', "import type { OrderView } from '../orders/present.js';\nexport type X = OrderView;\n"],
        ['jobs/probe.ts', "import { deliverMessage } from '../src/messages/service.js';\nexport const x = deliverMessage;\n"],
      ];
      for (const [filePath, code] of cases) {
        const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
        expect(result!.messages.map((m) => m.ruleId), code).to.deep.equal(['@typescript-eslint/no-restricted-imports']);
      }
      const [allowed] = await eslint.lintText("import { findVariants } from '../catalog/index.js';\nexport const x = findVariants;\n", { filePath: join(ROOT, 'src/coupons/probe.ts') });
      expect(allowed!.messages).to.deep.equal([]);
    });

    it('refuses a domain in the core and the http toolkit, and the top floor below it', async () => {
      const cases: [string, string][] = [
        ['src/http/probe.ts', "import type { StoreView } from '../stores/index.js';\nexport type X = StoreView;\n"],
        ['src/queue.ts', "import { catalogModule } from './catalog/index.js';\nexport const x = catalogModule;\n"],
        ['src/coupons/probe.ts', "import { MODULES } from '../modules.js';\nexport const x = MODULES;\n"],
      ];
      for (const [filePath, code] of cases) {
        const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
        expect(result!.messages.map((m) => m.ruleId), `${filePath}: ${code}`).to.include('@typescript-eslint/no-restricted-imports');
      }
    });

    it('refuses an import cycle (dependency-cruiser), and finds none in src/ and jobs/', () => {
      const cruise = (...paths: string[]) => spawnSync(join(ROOT, 'node_modules/.bin/depcruise'), [...paths, '--config', '.dependency-cruiser.cjs'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
      // CI runs with a colour-capable environment; compare the text without escape codes.
      const plain = (text: string) => stripVTControlCharacters(text);
      const cycle = cruise('fixtures/lint/cycle');
      expect(cycle.status).to.not.equal(0);
      expect(plain(cycle.stdout)).to.match(/error no-cycle: fixtures\/lint\/cycle\/a\.ts/);
      const platform = cruise('src', 'jobs');
      expect(platform.status, platform.stdout).to.equal(0);
      expect(plain(platform.stdout)).to.match(/no dependency violations found \((1\d\d|[2-9]\d\d) modules/);
    });
  });
});
