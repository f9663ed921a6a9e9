import autocannon from 'autocannon';
import { createHash, randomBytes } from 'node:crypto';
import { benchDatabase, freePort, printComparison, startServer, type LoadFigures, jsonClient, UNTHROTTLED } from './support.js';

/**
 * `npm run bench:apps`: what an installed app's read costs against the same read by the
 * merchant. The real web process serves `GET /v1/app/products?limit=50` with an app access token
 * (token lookup, installation check, scopes) and, as the baseline in the same run,
 * `GET /v1/products?limit=50` with the merchant's session for the same store: the ratio is the
 * price of app authentication. Loads alternate in slices so both see the same machine.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const SLICES = Number(process.env.BENCH_ROUNDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 500);
const OPERATOR = 'bench-operator@example.com';

const database = await benchDatabase();
const port = await freePort();
const env = {
  APP_ENV: 'development',
  MONGODB_URL: database.url,
  MONGODB_DB: `bench_apps_${Date.now()}`,
  LOG_LEVEL: 'warn',
  PORT: String(port),
  OPERATOR_EMAILS: OPERATOR,
  ...UNTHROTTLED,
};
const web = await startServer('dist/src/web.js', { ...env, LOG_LEVEL: 'info' }, 'web.listening');
const api = `http://127.0.0.1:${port}`;
const call = jsonClient(api);

async function account(email: string): Promise<string> {
  await call('POST', '/v1/auth/signup', { email, password: 'benchmark password', name: 'Bench' });
  return (await call('POST', '/v1/auth/signin', { email, password: 'benchmark password' })).data.session.token as string;
}

async function load(url: string, headers: Record<string, string>, seconds: number): Promise<LoadFigures> {
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.total / seconds, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total };
}
const merge = (parts: LoadFigures[]): LoadFigures => ({
  rps: parts.reduce((n, p) => n + p.rps, 0) / parts.length,
  p50: [...parts.map((p) => p.p50)].sort((a, b) => a - b)[Math.floor(parts.length / 2)]!,
  p99: Math.max(...parts.map((p) => p.p99)),
  total: parts.reduce((n, p) => n + p.total, 0),
});

try {
  const operator = await account(OPERATOR);
  const partner = await account(`bench-partner-${Date.now()}@example.com`);
  await call(
    'POST',
    '/v1/app-store/developers/register',
    { name: 'Bench', contact_email: 'b@example.com', support_url: 'https://b.example.com/s', privacy_policy_url: 'https://b.example.com/p' },
    { authorization: `Bearer ${partner}` },
  );
  const handle = `bench-${randomBytes(3).toString('hex')}`;
  const manifest = {
    schema_version: '2026-06-05.ws13',
    name: 'Bench app',
    handle,
    version: '1.0.0',
    app_url: `https://${handle}.example.com/`,
    redirect_urls: [`https://${handle}.example.com/cb`],
    scopes: ['read_products'],
    privacy_policy_url: 'https://b.example.com/p',
  };
  const submitted = (await call('POST', '/v1/app-store/developers/apps', { manifest }, { authorization: `Bearer ${partner}` })).data;
  await call('POST', `/v1/operations/app-reviews/${submitted.app.latest_version.id}/approve`, undefined, { authorization: `Bearer ${operator}` });

  const merchant = await account(`bench-merchant-${Date.now()}@example.com`);
  const store = (await call('POST', '/v1/stores', { name: 'Bench', subdomain: `bench-${Date.now()}` }, { authorization: `Bearer ${merchant}` })).data;
  const asMerchant = { authorization: `Bearer ${merchant}`, 'x-store-id': store.id };
  for (let i = 0; i < PRODUCTS; i++)
    await call('POST', '/v1/products', { title: `Product ${i}`, status: 'active', variants: [{ price: 1000 + i }] }, asMerchant);

  const verifier = randomBytes(32).toString('base64url');
  const granted = (
    await call(
      'POST',
      `/v1/app-store/apps/${submitted.app.id}/oauth/authorize`,
      {
        store_id: store.id,
        redirect_uri: manifest.redirect_urls[0],
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        scopes: ['read_products'],
        state: 's',
        webhook_url: 'https://b.example.com/h',
      },
      { authorization: `Bearer ${merchant}` },
    )
  ).data;
  const tokens = await call('POST', '/v1/app-store/oauth/token', {
    grant_type: 'authorization_code',
    code: granted.code,
    redirect_uri: manifest.redirect_urls[0],
    code_verifier: verifier,
    client_id: submitted.credentials.oauth_client_id,
    client_secret: submitted.credentials.client_secret,
  });
  const asApp = { authorization: `Bearer ${tokens.access_token}` };

  const appUrl = `${api}/v1/app/products?limit=50`;
  const merchantUrl = `${api}/v1/products?limit=50`;
  await load(appUrl, asApp, 2);
  await load(merchantUrl, asMerchant, 2);
  const app: LoadFigures[] = [];
  const base: LoadFigures[] = [];
  for (let i = 0; i < SLICES; i++) {
    app.push(await load(appUrl, asApp, SECONDS / SLICES));
    base.push(await load(merchantUrl, asMerchant, SECONDS / SLICES));
  }
  printComparison(
    `GET /v1/app/products?limit=50 (app token) vs GET /v1/products?limit=50 (merchant session), ${PRODUCTS} products, ${CONNECTIONS} connections, ${SECONDS} s each in ${SLICES} slices, database ${database.embedded ? 'embedded FerretDB' : 'MONGODB_URL'}`,
    merge(app),
    merge(base),
    ['app token', 'merchant session'],
  );
} finally {
  web.kill('SIGTERM');
  await database.stop();
}
