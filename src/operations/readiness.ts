import { developmentSecrets } from '../config.js';
import { mailTransport } from '../mail-config.js';
import type { Module } from '../module.js';
import type { Platform } from '../platform.js';
import { processesOverview } from './overview.js';

export type ReadinessItem = { check: string; status: 'pass' | 'fail'; detail: string };

const item = (check: string, ok: boolean, pass: string, fail: string): ReadinessItem => ({ check, status: ok ? 'pass' : 'fail', detail: ok ? pass : fail });

/** The declared indexes (the modules') that the database does not have, as `collection.name`. */
export async function missingIndexes(platform: Platform, modules: readonly Module[]): Promise<string[]> {
  const declared = modules.flatMap((m) => m.indexes ?? []);
  const byCollection = new Map<string, Set<string>>();
  for (const d of declared) for (const i of d.indexes) if (i.name) byCollection.set(d.collection, (byCollection.get(d.collection) ?? new Set()).add(i.name));
  const missing = await Promise.all(
    [...byCollection].map(async ([collection, names]) => {
      const present = new Set(
        (
          await platform.db
            .collection(collection)
            .listIndexes()
            .toArray()
            .catch(() => [])
        ).map((i) => String(i.name)),
      );
      return [...names].filter((n) => !present.has(n)).map((n) => `${collection}.${n}`);
    }),
  );
  return missing.flat().sort();
}

/**
 * `GET /v1/operations/runtime/readiness-report` (docs/operations.md, Readiness report): what in this
 * deployment is not yet fit for production, an item each, `pass` or `fail` with why. The whole
 * report passes when every item does.
 */
export async function readinessReport(platform: Platform, modules: readonly Module[]) {
  const { config } = platform;
  const now = platform.clock.now();
  const dev = developmentSecrets(config);
  const [hello, missing, procs] = await Promise.all([
    platform.db.command({ hello: 1 }).catch(() => ({}) as Record<string, unknown>),
    missingIndexes(platform, modules),
    processesOverview(platform, now),
  ]);
  const withoutProcess = procs.groups_without_a_process;
  const items: ReadinessItem[] = [
    item(
      'secrets_key',
      !dev.secretsKey,
      'SECRETS_KEYS is this deployment’s own',
      'SECRETS_KEYS includes the public development key: stored secrets can be read by anyone with the source',
    ),
    item(
      'internal_secret',
      config.internalSecret !== null && !dev.internalSecret,
      'INTERNAL_SECRET is set and is not the development one',
      config.internalSecret === null
        ? 'INTERNAL_SECRET is not set: the web process cannot wake the webhooks service'
        : 'INTERNAL_SECRET is the public development one',
    ),
    // The check kept its name from before SMTP: it asks whether email leaves the platform at all.
    item(
      'message_relay',
      mailTransport(config) !== 'outbox',
      config.mail.smtp ? `SMTP_URL is set: email goes out through ${config.mail.smtp.display}` : 'MESSAGE_RELAY_URL is set',
      'neither SMTP_URL nor MESSAGE_RELAY_URL: sign-in codes, reset links and store emails stay in the development outbox',
    ),
    item(
      'storage',
      config.storage.driver === 's3',
      'STORAGE_DRIVER=s3',
      'STORAGE_DRIVER=local: files live on one machine’s disk (no second web process sees them)',
    ),
    item(
      'webhook_targets',
      config.env === 'production' || config.env === 'staging',
      `APP_ENV=${config.env}: webhook targets must use https`,
      `APP_ENV=${config.env}: plain-http webhook targets on loopback are accepted`,
    ),
    item(
      'database_replica_set',
      typeof hello.setName === 'string',
      `a replica set (${String(hello.setName)})`,
      'the database is not a replica set (the embedded database is not): no failover, and a lost machine loses writes',
    ),
    item('indexes', missing.length === 0, 'every declared index exists', `missing: ${missing.join(', ')}`),
    item('worker_groups', withoutProcess.length === 0, 'every worker group has a live process', `no live process in: ${withoutProcess.join(', ')}`),
    item(
      'operations_recording',
      config.operations.recording,
      'processes write heartbeats and runtime counters',
      'OPERATIONS_RECORDING=off: no heartbeats or counters, so no processes in the overview, no dashboards, and incident rules blind',
    ),
  ];
  return {
    status: items.every((i) => i.status === 'pass') ? ('pass' as const) : ('fail' as const),
    environment: config.env,
    generated_at: now.toISOString(),
    items,
  };
}
