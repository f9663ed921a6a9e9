import { useTestApp, type TestApp } from './app.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchant, type GivenMerchantWithStore } from './factories.js';
import type { Client } from './http.js';
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
