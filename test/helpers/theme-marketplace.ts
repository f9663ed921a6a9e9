import { useTestApp, type TestApp } from './app.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchant, type GivenMerchantWithStore } from './factories.js';
import { expect } from 'chai';
import type { Client } from './http.js';
import { until } from './waiting.js';
import { startWorker, stopAll, type RunningProcess } from './processes.js';

/** Reviews checked within half a second, and a review lease short enough to see one lapse. */
const THEMES_WORKER_ENV = { THEMES_SWEEP_INTERVAL_MS: '500', THEMES_REVIEW_LEASE_MS: '2000' };

/**
 * The theme marketplace for one describe block: the app (`operatorEmail` an operator), an
 * author's shop, the operator's account and a real `themes` worker that runs the review checks.
 * The objects are filled in by `before` hooks registered here. After the block the worker is
 * stopped (SIGTERM, waited for) and the app closed. `extra`: more environment for the app and
 * the worker (e.g. the s3 storage driver, test/helpers/s3.ts).
 */
export function useThemeMarketplace(
  name: string,
  operatorEmail: string,
  extra: () => Record<string, string> = () => ({}),
): { app: TestApp; api: Client; author: GivenMerchantWithStore; operator: GivenMerchant; worker: RunningProcess } {
  const running: RunningProcess[] = [];
  after(() => stopAll(running, 'SIGTERM'));
  const { app, api } = useTestApp(name, () => ({ OPERATOR_EMAILS: operatorEmail, ...THEMES_WORKER_ENV, ...extra() }));
  const author = {} as GivenMerchantWithStore;
  const operator = {} as GivenMerchant;
  const worker = {} as RunningProcess;
  before(async () => {
    Object.assign(author, await givenMerchantWithStore(api));
    Object.assign(operator, await givenMerchant(api, { email: operatorEmail }));
    Object.assign(worker, await startWorker(app, 'themes', running, THEMES_WORKER_ENV, 'worker.started'));
  });
  return { app, api, author, operator, worker };
}

/** A bundle uploaded by its author for the theme store, checked by the worker and approved by the operator: a published theme; its slug. */
export async function approvedTheme(api: Client, author: GivenMerchantWithStore, operator: GivenMerchant, bundle: Record<string, any>): Promise<string> {
  const up = await api.post('/v1/themes/packages/upload', { bundle }, { token: author.merchant.token });
  expect(up.status, JSON.stringify(up.body)).to.equal(201);
  const id = up.body.data.review_record.id as string;
  await until(`review ${id} checked`, async () => {
    const r = await api.get(`/v1/operations/theme-reviews/${id}`, { token: operator.token });
    return r.body.data?.status === 'awaiting_review' ? r.body.data : null;
  });
  expect((await api.post(`/v1/operations/theme-reviews/${id}/approve`, undefined, { token: operator.token })).status).to.equal(200);
  return bundle.package.slug as string;
}
