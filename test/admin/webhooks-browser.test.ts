import { ObjectId } from 'mongodb';
import { fitsAndPasses } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { useBrowser } from '../helpers/browser.js';
import { givenMerchant, givenStore } from '../helpers/factories.js';
import { givenSubscription } from '../helpers/webhooks.js';

const OPERATOR = 'webhooks-browser-operator@example.com';

/**
 * The admin's Webhooks and Your account in a real browser (Chromium; docs/admin.md): every page
 * kind fits at 1280 and 390 px (no sideways scroll) and axe finds nothing serious, with the
 * operator's Console link in the top bar; a webhook added from its form shows its secret once.
 */
describe('Admin: Webhooks and Your account in a browser (Chromium)', () => {
  const { app, api } = useTestApp('admin_webhooks_browser', { OPERATOR_EMAILS: OPERATOR });
  const chromium = useBrowser();

  it('shows every page kind of Webhooks and Your account fitting at 1280 and 390 px, axe-clean', async () => {
    const merchant = await givenMerchant(api, { email: OPERATOR });
    const store = await givenStore(api, merchant);
    const as = { token: merchant.token, storeId: store.id };
    const sub = await givenSubscription(api, as, {
      target_url: 'https://hooks.example.com/a/rather/long/path/to/the/fulfilment-system/endpoint?token=abc',
      event_types: ['order.created', 'order.cancelled', 'product.*'],
      description: 'Fulfilment sync',
    });
    // A failed delivery to show (no webhooks worker runs here), as the worker records one.
    const now = new Date();
    const delivery = await app.platform.db.collection('webhook_deliveries').insertOne({
      store_id: new ObjectId(store.id),
      event_id: new ObjectId(),
      subscription_id: new ObjectId(sub.id as string),
      event_type: 'order.created',
      status: 'failed',
      next_attempt: 9,
      next_attempt_at: null,
      lease_until: null,
      lease_owner: null,
      attempts: [
        {
          series: 1,
          number: 0,
          request_id: 'whreq_1',
          started_at: now,
          duration_ms: 41,
          status: 500,
          error: 'Webhook endpoint returned HTTP 500',
          response_preview: 'upstream exploded',
          retry_seconds: 120,
        },
        {
          series: 1,
          number: 1,
          request_id: 'whreq_2',
          started_at: now,
          duration_ms: 5000,
          status: null,
          error: 'The request timed out',
          response_preview: null,
          retry_seconds: null,
        },
      ],
      completed_at: now,
      series: 1,
      created_at: now,
      updated_at: now,
    });

    const page = await chromium.page();
    await page.goto(`${app.url}/login`);
    const signIn = page.locator('form[action="/login"]');
    await signIn.getByLabel('Email').fill(merchant.email);
    await signIn.getByLabel('Password').fill(merchant.password);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`**/admin/stores/${store.id}`);

    const at = `${app.url}/admin/stores/${store.id}/settings/webhooks`;
    for (const path of [
      at,
      `${at}/new`,
      `${at}/${sub.id}`,
      `${at}/${sub.id}/deliveries/${delivery.insertedId.toHexString()}`,
      `${at}/${sub.id}/rotate-secret`,
      `${at}/${sub.id}/delete`,
      `${app.url}/admin/account`,
    ]) {
      await page.goto(path);
      await fitsAndPasses(page);
    }

    await page.goto(`${at}/new`);
    await page.getByLabel('Endpoint URL').fill('https://erp.example.com/hooks');
    await page.getByLabel('Events', { exact: true }).fill('order.*');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByRole('heading', { name: 'Webhook added' }).waitFor();
    await fitsAndPasses(page);
  });
});
