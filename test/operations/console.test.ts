import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { givenSubmittedApp } from '../helpers/apps.js';
import { givenAppAndCustomer } from '../helpers/callers.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { useThemeMarketplace } from '../helpers/theme-marketplace.js';
import { bundleOf } from '../helpers/theme-uploads.js';
import { until } from '../helpers/waiting.js';

const OPERATOR = 'console-operator@example.com';

/** A page of the console as a browser gets it: no redirects followed, the session cookie if given. */
type Got = { status: number; html: string; headers: Headers };

/**
 * The operator console over HTTP (docs/console.md): pages at /console for an operator's browser
 * session (the `emporium_session` cookie, set here from an API sign-in), refused to a merchant who
 * is no operator, to any bearer token and to an app's or a customer's token in the cookie; every
 * action a POST form with the session-bound CSRF token and a 303 back; lists paged with the API's
 * cursors; pages never framed.
 */
describe('Operations: the operator console', () => {
  const { app, api, author, operator } = useThemeMarketplace('operations_console', OPERATOR);
  let shop: GivenMerchantWithStore;
  let merchantToken: string;
  let callers: { appToken: string; customerToken: string };

  const cookie = (token: string) => ({ cookie: `emporium_session=${token}` });
  async function get(path: string, headers: Record<string, string> = cookie(operator.token)): Promise<Got> {
    const res = await fetch(app.url + path, { headers, redirect: 'manual' });
    return { status: res.status, html: await res.text(), headers: res.headers };
  }
  async function post(path: string, fields: Record<string, string>, headers: Record<string, string> = cookie(operator.token)): Promise<Got> {
    const res = await fetch(app.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
    return { status: res.status, html: await res.text(), headers: res.headers };
  }
  /** The console's form token: of the page's forms (the top bar's log-out form has a token of its own). */
  const csrfOf = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html.slice(html.indexOf('<main')))?.[1] ?? '';
  const jobs = () => app.platform.db.collection('agendaJobs');
  const failedJob = async () =>
    (
      await jobs().insertOne({
        name: 'bulk.export',
        data: { operation_id: new ObjectId().toHexString() },
        type: 'normal',
        priority: 0,
        nextRunAt: null,
        lockedAt: null,
        failedAt: new Date(),
        failCount: 1,
        failReason: 'boom <script>alert(1)</script>',
      })
    ).insertedId.toHexString();

  before(async () => {
    shop = await givenMerchantWithStore(api);
    merchantToken = (await givenMerchant(api)).token;
    callers = await givenAppAndCustomer(api, operator.token, shop);
  });

  it('refuses everyone but an operator signed in in a browser', async () => {
    const none = await get('/console/jobs?state=failed', {});
    expect(none.status).to.equal(303);
    expect(none.headers.get('location')).to.equal('/login?return_to=%2Fconsole%2Fjobs%3Fstate%3Dfailed');
    expect((await get('/console', cookie('emp_session_notalivesession'))).status).to.equal(303);
    const merchant = await get('/console', cookie(merchantToken));
    expect(merchant.status).to.equal(403);
    expect(merchant.html).to.contain('Only an operator');
    for (const token of [callers.appToken, callers.customerToken]) expect((await get('/console', cookie(token))).status, token.slice(0, 8)).to.equal(403);
    // Bearer tokens are never taken, not even an operator's.
    for (const token of [operator.token, callers.appToken, callers.customerToken])
      expect((await get('/console', { authorization: `Bearer ${token}` })).status).to.equal(403);
    // Actions too, and they change nothing.
    const id = await failedJob();
    expect((await post(`/console/jobs/${id}/rerun`, {}, cookie(merchantToken))).status).to.equal(403);
    expect((await post(`/console/jobs/${id}/rerun`, {}, { authorization: `Bearer ${operator.token}` })).status).to.equal(403);
    expect((await jobs().findOne({ _id: new ObjectId(id) }))?.nextRunAt).to.equal(null);
  });

  it('shows the overview, never framed nor cached, with its refresh script', async () => {
    const page = await get('/console');
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-security-policy')).to.contain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).to.equal('DENY');
    expect(page.headers.get('cache-control')).to.equal('no-store');
    expect(page.html).to.contain('Runtime overview').and.contain('Processes by group');
    expect(page.html).to.contain(OPERATOR);
    // The refresh is a script of this site's (src/http/ui/scripts.ts), never inline, cached for good by its version.
    expect(page.html).not.to.match(/<script>/);
    const src = /<script type="module" src="(\/assets\/scripts\/console-refresh\.js\?v=[\w-]{12})"><\/script>/.exec(page.html)?.[1];
    expect(src, 'the refresh script').to.be.a('string');
    const script = await fetch(app.url + src!);
    expect(script.status).to.equal(200);
    expect(script.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(script.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(await script.text()).to.contain('setInterval');
    // Another version is this build's script, not to be kept; an unknown name is no script.
    expect((await fetch(`${app.url}/assets/scripts/console-refresh.js?v=old`)).headers.get('cache-control')).to.equal('no-cache');
    for (const path of ['/assets/scripts/nothing.js', '/assets/scripts/console-refresh', '/assets/scripts/tsconfig.json'])
      expect((await fetch(app.url + path)).status, path).to.equal(404);
  });

  it('re-runs a failed job from its page (POST form, 303 back); escapes its error; refuses a missing, forged or cross-site token', async () => {
    const id = await failedJob();
    const list = await get('/console/jobs?state=failed&name=bulk.export');
    expect(list.status).to.equal(200);
    expect(list.html).to.contain(`/console/jobs/${id}`);
    const detail = await get(`/console/jobs/${id}`);
    expect(detail.html).to.contain('boom &lt;script&gt;').and.not.contain('<script>alert(1)');
    expect(detail.html).to.contain(`action="/console/jobs/${id}/rerun"`);
    const csrf = csrfOf(detail.html);
    expect(csrf).to.have.length.above(20);
    // The token is the session's: another operator session's is refused.
    const other = (await api.post('/v1/auth/signin', { email: OPERATOR, password: operator.password })).body.data.session.token as string;
    const otherCsrf = csrfOf((await get('/console/incidents', cookie(other))).html);
    expect(otherCsrf).to.not.equal(csrf);
    for (const [fields, headers] of [
      [{}, cookie(operator.token)],
      [{ csrf_token: 'forged' }, cookie(operator.token)],
      [{ csrf_token: otherCsrf }, cookie(operator.token)],
      [{ csrf_token: csrf }, { ...cookie(operator.token), origin: 'https://evil.example' }],
      [{ csrf_token: csrf }, { ...cookie(operator.token), 'sec-fetch-site': 'cross-site' }],
    ] as const) {
      const refused = await post(`/console/jobs/${id}/rerun`, fields, headers);
      expect(refused.status, JSON.stringify(fields)).to.equal(403);
      expect(refused.html).to.contain('expired or was sent from another site');
    }
    expect((await jobs().findOne({ _id: new ObjectId(id) }))?.nextRunAt).to.equal(null);
    const done = await post(`/console/jobs/${id}/rerun`, { csrf_token: csrf });
    expect(done.status, done.html).to.equal(303);
    expect(done.headers.get('location')).to.equal(`/console/jobs/${id}?done=rerun`);
    expect((await jobs().findOne({ _id: new ObjectId(id) }))?.nextRunAt).to.be.instanceOf(Date);
    // Again: the job is no longer failed: 409 page, as the API answers.
    const again = await post(`/console/jobs/${id}/rerun`, { csrf_token: csrf });
    expect(again.status).to.equal(409);
    expect(again.html).to.contain('only a failed job can be run again');
    // A body that is no form, or too large a form, is a 4xx page, never the API's JSON envelope.
    for (const [type, body, status] of [
      ['application/json', JSON.stringify({ csrf_token: csrf }), 415],
      ['application/json', '{"csrf_token":', 415],
      ['text/plain', `csrf_token=${csrf}`, 415],
      ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n${csrf}\r\n--x--\r\n`, 415],
      ['application/x-www-form-urlencoded', `csrf_token=${csrf}&note=${'x'.repeat(20_000)}`, 413],
      ['application/x-www-form-urlencoded', `csrf_token=${csrf}&a${'[b]'.repeat(100)}=1`, 409],
    ] as const) {
      const res = await fetch(`${app.url}/console/jobs/${id}/rerun`, {
        method: 'POST',
        headers: { ...cookie(operator.token), 'content-type': type },
        body,
        redirect: 'manual',
      });
      expect([res.status, res.headers.get('content-type')], `${type} ${body.slice(0, 40)}`).to.deep.equal([status, 'text/html; charset=utf-8']);
    }
  });

  it('pages lists with the API’s cursors, and answers bad queries and unknown pages with 4xx pages', async () => {
    for (let i = 0; i < 3; i++) await failedJob();
    const first = await get('/console/jobs?state=failed&limit=2');
    const next = /rel="next" href="([^"]+)"/.exec(first.html)?.[1]?.replace(/&amp;/g, '&');
    expect(next).to.match(/^\/console\/jobs\?state=failed&limit=2&cursor=/);
    const second = await get(next!);
    expect(second.status).to.equal(200);
    const ids = (html: string) => [...html.matchAll(/href="\/console\/jobs\/([0-9a-f]{24})"/g)].map((m) => m[1]);
    expect(ids(first.html)).to.have.length(2);
    expect(ids(second.html)).to.have.length.at.least(1);
    expect(ids(second.html)).to.not.include.members(ids(first.html));
    for (const bad of ['state=lost', 'limit=0', 'cursor=x', 'nope=1']) expect((await get(`/console/jobs?${bad}`)).status, bad).to.equal(400);
    expect((await get('/console/jobs/nope')).status).to.equal(404);
    expect((await get('/console/nowhere')).status).to.equal(404);
    expect((await get('/console/nowhere', {})).status, 'even a 404 asks for sign-in first').to.equal(303);
    for (const path of [
      '/console/deliveries?status=failed',
      '/console/incidents',
      '/console/gates',
      '/console/security',
      '/console/readiness',
      '/console/reviews',
    ])
      expect((await get(path)).status, path).to.equal(200);
  });

  it('approves a theme review and rejects an app version with reasons', async () => {
    const up = await api.post('/v1/themes/packages/upload', { bundle: bundleOf('aurora') }, { token: author.merchant.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    const reviewId = up.body.data.review_record.id as string;
    await until('the review checked', async () => (await get(`/console/reviews/themes/${reviewId}`)).html.includes('awaiting review'));
    const queue = await get('/console/reviews');
    expect(queue.html).to.contain(`/console/reviews/themes/${reviewId}`);
    const page = await get(`/console/reviews/themes/${reviewId}`);
    expect(page.html).to.contain('Automated checks').and.contain(`/console/reviews/themes/${reviewId}/approve`);
    const approved = await post(`/console/reviews/themes/${reviewId}/approve`, { csrf_token: csrfOf(page.html) });
    expect(approved.status, approved.html).to.equal(303);
    expect((await api.get(`/v1/operations/theme-reviews/${reviewId}`, { token: operator.token })).body.data.status).to.equal('approved');

    const partner = await givenSubmittedApp(api);
    const versionId = partner.app.latest_version.id as string;
    const appPage = await get(`/console/reviews/apps/${versionId}`);
    expect(appPage.status).to.equal(200);
    const csrf = csrfOf(appPage.html);
    expect((await post(`/console/reviews/apps/${versionId}/reject`, { csrf_token: csrf, reasons: ' \n ' })).status).to.equal(400);
    const rejected = await post(`/console/reviews/apps/${versionId}/reject`, { csrf_token: csrf, reasons: 'No privacy policy\nBroken icon' });
    expect(rejected.status, rejected.html).to.equal(303);
    const review = (await api.get(`/v1/operations/app-reviews/${versionId}`, { token: operator.token })).body.data;
    expect(review).to.include({ status: 'rejected' });
    expect(review.reasons).to.deep.equal(['No privacy policy', 'Broken icon']);
  });

  it('opens, acknowledges and resolves an incident with notes; redelivers a failed delivery', async () => {
    const csrf = csrfOf((await get('/console/incidents')).html);
    const opened = await post('/console/incidents', { csrf_token: csrf, title: 'Payments slow <b>', severity: 'critical', note: 'Looking' });
    expect(opened.status, opened.html).to.equal(303);
    const at = opened.headers.get('location')!.split('?')[0]!;
    expect((await get(at)).html).to.contain('Payments slow &lt;b&gt;');
    expect((await post(`${at}/acknowledge`, { csrf_token: csrf, note: '' })).status).to.equal(303);
    expect((await post(`${at}/notes`, { csrf_token: csrf, text: '' })).status).to.equal(400);
    expect((await post(`${at}/resolve`, { csrf_token: csrf, note: 'Fixed upstream' })).status).to.equal(303);
    const incident = (await api.get(`/v1/operations/runtime/${at.replace('/console/', '')}`, { token: operator.token })).body.data;
    expect(incident.status).to.equal('resolved');
    expect(incident.timeline.map((e: { text: string }) => e.text)).to.deep.equal(['Looking', 'Acknowledged', 'Fixed upstream']);

    const sub = await api.post('/v1/operations/webhook-subscriptions', { target_url: 'http://127.0.0.1:9/down', event_types: ['store.updated'] }, shop.as);
    expect(sub.status, JSON.stringify(sub.body)).to.equal(201);
    const now = new Date();
    const delivery = await app.platform.db.collection('webhook_deliveries').insertOne({
      store_id: new ObjectId(shop.store.id),
      event_id: new ObjectId(),
      subscription_id: new ObjectId(sub.body.data.id as string),
      event_type: 'store.updated',
      status: 'failed',
      next_attempt: 8,
      next_attempt_at: null,
      lease_until: null,
      lease_owner: null,
      attempts: [
        {
          series: 1,
          number: 0,
          request_id: 'r1',
          started_at: now,
          duration_ms: 3,
          status: null,
          error: 'connect ECONNREFUSED',
          response_preview: null,
          retry_seconds: null,
        },
      ],
      completed_at: now,
      series: 1,
      created_at: now,
      updated_at: now,
    });
    const id = delivery.insertedId.toHexString();
    const failing = await get('/console/deliveries?status=failed');
    expect(failing.html).to.contain(`/console/deliveries/${id}`);
    const page = await get(`/console/deliveries/${id}`);
    expect(page.html).to.contain('connect ECONNREFUSED').and.contain('Redeliver');
    const done = await post(`/console/deliveries/${id}/redeliver`, { csrf_token: csrfOf(page.html) });
    expect(done.status, done.html).to.equal(303);
    expect((await app.platform.db.collection('webhook_deliveries').findOne({ _id: delivery.insertedId }))?.status).to.not.equal('failed');
  });

  it('runs a deployment health gate and shows its verdict', async () => {
    const csrf = csrfOf((await get('/console/gates')).html);
    const ran = await post('/console/gates', { csrf_token: csrf, label: 'release 42', check_database_read: '1', check_indexes: '1' });
    expect(ran.status, ran.html).to.equal(303);
    const gate = await get(ran.headers.get('location')!);
    expect(gate.html).to.contain('release 42').and.contain('database read').and.contain('passed');
  });
});
