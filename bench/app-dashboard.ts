import { randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import { partnerDashboard } from '../src/apps/partners/dashboard.js';
import { registerDeveloper } from '../src/apps/partners/developers.js';
import { approveVersion } from '../src/apps/listing-review/service.js';
import { submitApp } from '../src/apps/partners/submissions.js';
import { authorize, uninstall } from '../src/apps/installations/service.js';
import { installations } from '../src/apps/installations/models.js';
import { openPlatform } from '../src/boot.js';
import { loadConfig } from '../src/config.js';
import { createLog } from '../src/log.js';
import { MODULES } from '../src/modules.js';
import { benchDatabase, percentile } from './support.js';

/**
 * `npm run bench:dashboard`: the partner dashboard of an app with BENCH_INSTALLS installations
 * (default 10,000; a fifth of them uninstalled), made through the platform's own install and
 * uninstall code (authorize, uninstall), against the baseline in the same run: the install
 * figures the dashboard shows (active, uninstalled, installs and uninstalls by day over 30
 * days) computed from the installations themselves, the way a dashboard without counters
 * would. Both are timed one call at a time, alternating; the ratio is dashboard / baseline.
 *
 * The stores are ids only (neither read reads a store), and no webhooks worker runs (the
 * webhooks module's event hooks are left out, so the seeding enqueues no fan-out jobs).
 */
const INSTALLS = Number(process.env.BENCH_INSTALLS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const SEED_CONCURRENCY = 8;

const database = await benchDatabase();
const env = {
  APP_ENV: 'development',
  MONGODB_URL: database.url,
  MONGODB_DB: `bench_dashboard_${Date.now()}`,
  LOG_LEVEL: 'warn',
  OAUTH_RATE_LIMIT: '100000000',
};
const modules = MODULES.map((m) => (m.name === 'webhooks' ? { ...m, eventHooks: undefined } : m));
const { platform, close } = await openPlatform(loadConfig(env), 'bench', { log: createLog('warn', {}), modules });

try {
  // A partner and a published app, as the routes make them.
  const partnerId = new ObjectId().toHexString();
  await registerDeveloper(platform, partnerId, {
    name: 'Bench',
    contact_email: 'b@example.com',
    website_url: null,
    support_url: 'https://b.example.com/s',
    privacy_policy_url: 'https://b.example.com/p',
  });
  const handle = `bench-${randomBytes(3).toString('hex')}`;
  const submitted = await submitApp(platform, partnerId, {
    manifest: {
      schema_version: '2026-06-05.ws13',
      name: 'Bench app',
      handle,
      version: '1.0.0',
      description: 'Benchmark',
      app_url: `https://${handle}.example.com/`,
      redirect_urls: [`https://${handle}.example.com/cb`],
      scopes: ['read_products'],
      webhooks: { topics: ['product.created'] },
      privacy_policy_url: 'https://b.example.com/p',
    },
  });
  const operator = { kind: 'merchant' as const, merchantId: new ObjectId().toHexString(), sessionId: new ObjectId().toHexString(), operator: true };
  await approveVersion(platform, operator, submitted.app.latest_version!.id);
  const appId = submitted.app.id;

  const seedStarted = Date.now();
  let next = 0;
  const uninstallEvery = 5;
  await Promise.all(
    Array.from({ length: SEED_CONCURRENCY }, async () => {
      for (let i = next++; i < INSTALLS; i = next++) {
        const storeId = new ObjectId().toHexString();
        const granted = await authorize(platform, new ObjectId().toHexString(), storeId, appId, {
          store_id: storeId,
          redirect_uri: `https://${handle}.example.com/cb`,
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
          scopes: ['read_products'],
          state: 's',
          webhook_url: `https://${handle}.example.com/webhooks`,
        });
        if (i % uninstallEvery === 0) await uninstall(platform, storeId, granted.installation.id);
      }
    }),
  );
  const seedSeconds = (Date.now() - seedStarted) / 1000;

  const id = new ObjectId(appId);
  const sinceDay = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
  /** The baseline: the install figures from the installations (two counts and a pass over the window's). */
  const fromInstallations = async () => {
    const coll = installations(platform.db);
    const [active, uninstalled] = await Promise.all([
      coll.countDocuments({ app_id: id, status: 'active' }),
      coll.countDocuments({ app_id: id, status: 'uninstalled' }),
    ]);
    const since = new Date(`${sinceDay}T00:00:00Z`);
    const byDay = new Map<string, { installed: number; uninstalled: number }>();
    const bump = (at: Date | null, k: 'installed' | 'uninstalled') => {
      if (!at || at < since) return;
      const day = at.toISOString().slice(0, 10);
      const e = byDay.get(day) ?? { installed: 0, uninstalled: 0 };
      e[k]++;
      byDay.set(day, e);
    };
    for await (const doc of coll.find({ app_id: id }, { projection: { installed_at: 1, uninstalled_at: 1 } })) {
      bump(doc.installed_at, 'installed');
      bump(doc.uninstalled_at, 'uninstalled');
    }
    return { active, uninstalled, byDay };
  };

  // Both agree before anything is timed.
  const shown = (await partnerDashboard(platform, partnerId, { days: 30 })).apps[0]!;
  const counted = await fromInstallations();
  if (shown.installs.active !== counted.active || shown.installs.uninstalled !== counted.uninstalled) {
    throw new Error(
      `the counters disagree with the installations: ${JSON.stringify(shown.installs)} vs ${JSON.stringify({ active: counted.active, uninstalled: counted.uninstalled })}`,
    );
  }

  const dashboardMs: number[] = [];
  const baselineMs: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    let t = performance.now();
    await partnerDashboard(platform, partnerId, { days: 30 });
    dashboardMs.push(performance.now() - t);
    t = performance.now();
    await fromInstallations();
    baselineMs.push(performance.now() - t);
  }
  const row = (label: string, xs: number[]) =>
    `${label.padEnd(44)} p50 ${percentile(xs, 0.5).toFixed(2).padStart(8)} ms   p90 ${percentile(xs, 0.9).toFixed(2).padStart(8)} ms`;
  console.log(
    `\nPartner dashboard, one app with ${INSTALLS} installations (${shown.installs.active} active, ${shown.installs.uninstalled} uninstalled); seeded in ${seedSeconds.toFixed(1)} s through authorize/uninstall`,
  );
  console.log(row('GET …/partners/dashboard (counters, all figures)', dashboardMs));
  console.log(row('baseline: install figures from installations', baselineMs));
  console.log(`ratio (dashboard / baseline, p50): ${(percentile(dashboardMs, 0.5) / percentile(baselineMs, 0.5)).toFixed(3)}`);
} finally {
  await close();
  await database.stop();
}
