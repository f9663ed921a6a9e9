import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devStartEnv, runCommand, type RunningProcess } from '../helpers/processes.js';
import { freePort } from '../helpers/waiting.js';

/**
 * The shell walkthroughs, run as a reader would paste them: every `sh` block of the README's "Try
 * it" section, then docs/storefront.md's walkthrough (its first block, which goes on from the
 * README's), then docs/shop.md's (the same store through its pages), in order, in one bash, against `npm start`'s whole platform (its own ports and data
 * folder here: `localhost:3000` becomes the test's port). `curl` fails on an HTTP error
 * (`--fail-with-body`) and bash stops at the first failing command, so a walkthrough that no
 * longer works fails here with the command and its answer.
 */
function shellBlocks(markdown: string, section: string | null): string[] {
  const start = section === null ? 0 : markdown.indexOf(`\n## ${section}\n`);
  if (start < 0) throw new Error(`no section "${section}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  const body = markdown.slice(start, end < 0 ? undefined : end);
  return [...body.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

describe('The README, storefront and shop walkthroughs, pasted into a shell', function () {
  this.timeout(180_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'emporium-walkthrough-'));
  let platform: RunningProcess | null = null;
  let port: number;

  before(async () => {
    port = await freePort();
    const env = await devStartEnv(dataDir, port, { OPERATOR_EMAILS: 'ada@example.com' });
    platform = runCommand('node', ['dist/src/dev/start.js'], env);
    await platform.waitFor('Ctrl-C stops everything.', 90_000);
  });
  after(async () => {
    if (platform && platform.child.exitCode === null) {
      platform.child.kill('SIGTERM');
      await platform.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs every command of the README\'s "Try it" and then of storefront.md\'s walkthrough, each answering 2xx: the theme live, an order paid', () => {
    const readme = shellBlocks(readFileSync('README.md', 'utf8'), 'Try it');
    expect(readme.length, 'the sign-up block and the theme block').to.be.at.least(2);
    const storefront = shellBlocks(readFileSync('docs/storefront.md', 'utf8'), null)[0]!;
    expect(storefront).to.include('payments/sandbox/verify');
    const shop = shellBlocks(readFileSync('docs/shop.md', 'utf8'), null)[0]!;
    expect(shop).to.include('/checkout/place');
    const blocks = [...readme, storefront, shop];
    const script = [
      'set -euo pipefail -x',
      'curl() { command curl --fail-with-body --max-time 30 "$@"; }',
      ...blocks.map((b) => b.replaceAll('localhost:3000', `localhost:${port}`)),
    ].join('\n');
    const run = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 120_000 });
    expect(
      run.status,
      `exit ${run.status}\n--- stdout\n${run.stdout.slice(-3000)}\n--- stderr (each command, as bash ran it)\n${run.stderr.slice(-3000)}`,
    ).to.equal(0);
    expect(run.stdout).to.include('"subdomain":"ada-goods"');
    expect(run.stdout, run.stdout.slice(-1500)).to.match(/"slug":"aurora",[^{}]*"role":"live"/);
    expect(run.stdout, run.stdout.slice(-1500)).to.match(/"financial_status":"paid"/);
    // docs/shop.md's: the same store as a website, its cart in a cookie jar, checked out and paid through its pages.
    expect(run.stdout, run.stdout.slice(-1500)).to.match(/Order #\d+\nPaid\nThank you/);
  });
});
