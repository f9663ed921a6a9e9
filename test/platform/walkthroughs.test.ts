import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../src/localdb/index.js';
import { devStartEnv, runCommand, type RunningProcess } from '../helpers/processes.js';
import { freePort } from '../helpers/waiting.js';

/**
 * Every doc's walkthrough, pasted as a new reader would: the README's "Try it" first, then each
 * doc of WALKTHROUGHS in its own bash, which starts with nothing but the README's `$TOKEN` (Ada's
 * session) and `$STORE` (her store's id), so a doc that leans on another doc's variables fails
 * here. Every `sh` block of a listed doc runs, in order, in the repository's folder, against one
 * `npm start` (the whole platform: web, every worker, the embedded database, started with
 * OPERATOR_EMAILS=ada@example.com as the README says) on ports of the test's own: the docs'
 * `localhost:3000`, the outbox's `127.0.0.1:27018` and the webhooks process's `127.0.0.1:3001`
 * become them. `curl` fails on an HTTP error (`--fail-with-body`) and bash stops at the first
 * failing command, so a walkthrough that no longer works fails with the command and its answer.
 */
const README = { file: 'README.md', section: 'Try it' };

/**
 * The docs with walkthroughs, in the order they run on the one platform (each doc's state stays
 * for the next). The checkouts of storefront.md and shop.md need a store without shipping rates,
 * so they run before shipping.md adds some. `shows`: what the walkthrough's output must contain.
 */
const WALKTHROUGHS: readonly { doc: string; shows?: RegExp }[] = [
  { doc: 'docs/conventions.md' },
  { doc: 'docs/auth.md' },
  { doc: 'docs/stores.md' },
  { doc: 'docs/media.md' },
  { doc: 'docs/catalog.md' },
  { doc: 'docs/inventory.md' },
  { doc: 'docs/customers.md' },
  { doc: 'docs/coupons.md' },
  { doc: 'docs/giftcards.md' },
  { doc: 'docs/storefront.md', shows: /"financial_status":"paid"/ },
  // The same store as a website: its cart in a cookie jar, checked out and paid through its pages.
  { doc: 'docs/shop.md', shows: /Order #\d+\nPaid\nThank you/ },
  { doc: 'docs/rendering.md' },
  { doc: 'docs/forms.md' },
  { doc: 'docs/customer-accounts.md' },
  { doc: 'docs/product-reviews.md' },
  { doc: 'docs/content.md' },
  { doc: 'docs/payments.md' },
  { doc: 'docs/orders.md' },
  { doc: 'docs/notifications.md', shows: /Thanks for order #1001/ },
  { doc: 'docs/taxes.md' },
  { doc: 'docs/shipping.md' },
  { doc: 'docs/webhooks.md' },
  { doc: 'docs/themes.md' },
  { doc: 'docs/oauth.md' },
  { doc: 'docs/apps.md' },
  { doc: 'docs/extensions.md' },
  { doc: 'docs/graphql.md' },
  { doc: 'docs/bulk.md' },
  { doc: 'docs/operations.md' },
];

/** The `sh` blocks of a markdown file, or of one of its `## ` sections. */
function shellBlocks(markdown: string, section: string | null = null): string[] {
  const start = section === null ? 0 : markdown.indexOf(`\n## ${section}\n`);
  if (start < 0) throw new Error(`no section "${section}"`);
  const end = section === null ? -1 : markdown.indexOf('\n## ', start + 1);
  const body = markdown.slice(start, end < 0 ? undefined : end);
  return [...body.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
}

describe('The docs list every walkthrough', () => {
  it('names, in WALKTHROUGHS, every doc that has sh blocks, and only those', () => {
    const withBlocks = readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`)
      .filter((doc) => shellBlocks(readFileSync(join(ROOT, doc), 'utf8')).length > 0);
    expect(
      WALKTHROUGHS.map((w) => w.doc).sort(),
      'a doc with sh blocks is a walkthrough that runs here (fence blocks not meant to be pasted as text, json, http…)',
    ).to.deep.equal(withBlocks.sort());
  });
});

describe('Every walkthrough, pasted into a shell against npm start', () => {
  const dirs: string[] = [];
  let platform: RunningProcess | null = null;
  let env: NodeJS.ProcessEnv = {};
  let readme: { TOKEN: string; STORE: string } | null = null;

  before(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'emporium-walkthrough-'));
    // The media the walkthroughs upload go here, not into the repository's .localdb/storage.
    const storageDir = mkdtempSync(join(tmpdir(), 'emporium-walkthrough-storage-'));
    dirs.push(dataDir, storageDir);
    env = await devStartEnv(dataDir, await freePort(), { OPERATOR_EMAILS: 'ada@example.com', STORAGE_LOCAL_DIR: storageDir });
    platform = runCommand('node', ['dist/src/dev/start.js'], env);
    await platform.waitFor('Ctrl-C stops everything.', 150_000);
  });
  after(async () => {
    if (platform && platform.child.exitCode === null) {
      platform.child.kill('SIGTERM');
      await platform.exited;
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** The blocks as one bash script on the test's ports; the run's output, once bash has exited. */
  function paste(blocks: string[], extraEnv: Record<string, string>, after = ''): Promise<BashRun> {
    for (const block of blocks) {
      // A second platform would bind the documented ports: the prose says how to start the one.
      if (/\bnpm (start|test)\b/.test(block)) throw new Error(`a block starts a platform; say so in prose instead:\n${block}`);
    }
    const script = [
      'set -euo pipefail -x',
      'curl() { command curl --fail-with-body --silent --show-error --max-time 30 "$@"; }',
      ...blocks.map((b) =>
        b
          .replaceAll('localhost:3000', `localhost:${env.PORT}`)
          .replaceAll('127.0.0.1:27018', `127.0.0.1:${env.LOCALDB_PORT}`)
          .replaceAll('127.0.0.1:3001', `127.0.0.1:${env.WEBHOOKS_INTERNAL_PORT}`),
      ),
      after,
    ].join('\n');
    return runBash(script, { ...env, ...extraEnv }, 240_000);
  }

  it('runs every command of the README\'s "Try it": Ada signed up with her store, the Aurora theme live', async () => {
    const blocks = shellBlocks(readFileSync(join(ROOT, README.file), 'utf8'), README.section);
    expect(blocks.length, 'the sign-up block and the theme block').to.be.at.least(2);
    const run = await paste(blocks, {}, 'printf "\\n%s\\n%s\\n" "$TOKEN" "$STORE"');
    expect(run.status, explain(run)).to.equal(0);
    expect(run.stdout).to.include('"subdomain":"ada-goods"');
    expect(run.stdout, run.stdout.slice(-1500)).to.match(/"slug":"aurora",[^{}]*"role":"live"/);
    const [TOKEN, STORE] = run.stdout.trimEnd().split('\n').slice(-2) as [string, string];
    readme = { TOKEN, STORE };
  });

  for (const { doc, shows } of WALKTHROUGHS) {
    it(`runs every command of ${doc} after the README's, each answering as it says`, async () => {
      if (!readme) throw new Error('the README\'s "Try it" did not finish: its test says why');
      const run = await paste(shellBlocks(readFileSync(join(ROOT, doc), 'utf8')), readme);
      expect(run.status, explain(run)).to.equal(0);
      if (shows) expect(run.stdout, run.stdout.slice(-1500)).to.match(shows);
    });
  }
});

type BashRun = { status: number | null; stdout: string; stderr: string };

/**
 * `bash -c script` in the repository's folder. Asynchronous on purpose: while it runs, this
 * process keeps reading the platform's output, whose pipe would otherwise fill and stall it.
 */
function runBash(script: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<BashRun> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // The whole process group: a walkthrough's loops and pipes die with it.
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), timeoutMs);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr: status === null ? `${stderr}\n(killed after ${timeoutMs} ms)` : stderr });
    });
  });
}

function explain(run: BashRun): string {
  return `exit ${run.status}\n--- stdout\n${run.stdout.slice(-3000)}\n--- stderr (each command, as bash ran it)\n${run.stderr.slice(-3000)}`;
}
