import { randomBytes } from 'node:crypto';
import { benchDatabase, freePort, jsonClient, percentile, startServer, UNTHROTTLED } from './support.js';

/**
 * `npm run bench:customer-accounts` (docs/customer-accounts.md, Sign-up): what a stopwatch sees of
 * the customer account routes, by what the store knows of the email. Sign-up answers alike for a
 * new email (the baseline: it hashes the password and creates the account), an email of a customer
 * the merchant made, an email with an account, and a store that does not exist; login answers a
 * wrong password (the account's hash) and an unknown email (the decoy hash) alike. Their times
 * should be too: test/customers/customer-accounts.test.ts proves that every sign-up path hashes the
 * password once, and this prints what that buys against a clock. BENCH_ROUNDS (default 40) rounds
 * on the real web process, each sending every case once, one request at a time, in an order that
 * turns each round so no case always follows another. Printed: each case's p50 and p99, and its
 * p50 as a ratio of the baseline's.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);

const database = await benchDatabase();
const port = await freePort();
const env = {
  APP_ENV: 'development',
  MONGODB_URL: database.url,
  MONGODB_DB: `bench_customer_accounts_${Date.now()}`,
  LOG_LEVEL: 'warn',
  PORT: String(port),
  // Each request comes from an address of its own (X-Forwarded-For), so the per-address limits never answer instead.
  TRUST_PROXY: 'true',
  ...UNTHROTTLED,
};
const web = await startServer('dist/src/web.js', { ...env, LOG_LEVEL: 'info' }, 'web.listening');
const api = `http://127.0.0.1:${port}`;
const call = jsonClient(api);

try {
  const unique = () => randomBytes(4).toString('hex');
  const merchant = { email: `bench-accounts-${unique()}@example.com`, password: 'benchmark password', name: 'Bench' };
  await call('POST', '/v1/auth/signup', merchant);
  const token: string = (await call('POST', '/v1/auth/signin', { email: merchant.email, password: merchant.password })).data.session.token;
  const store = (await call('POST', '/v1/stores', { name: 'Accounts', subdomain: `accounts-${unique()}` }, { authorization: `Bearer ${token}` })).data;
  const admin = { authorization: `Bearer ${token}`, 'x-store-id': store.id };

  let address = 0;
  /** One request from an address of its own: its status and milliseconds. */
  const timed = async (path: string, body: unknown) => {
    const n = ++address;
    const t0 = performance.now();
    const res = await fetch(api + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - t0 };
  };
  const signUp = (subdomain: string, email: string) => timed('/v1/storefront/customer/signup', { subdomain, email, password: 'a password of ten' });
  const logIn = (email: string) => timed('/v1/storefront/customer/login', { subdomain: store.subdomain, email, password: 'not the password' });

  // Emails with an account, each used once by each case that needs one (the per-email limits count per window):
  // the baseline's sign-ups make them as the rounds go.
  const withAccount = { signUp: [] as string[], logIn: [] as string[] };
  const madeAccount = (email: string) => {
    withAccount.signUp.push(email);
    withAccount.logIn.push(email);
  };
  for (let i = 0; i < 2; i++) {
    const email = `account-${unique()}@example.com`;
    const { status } = await signUp(store.subdomain, email);
    if (status !== 202) throw new Error(`sign-up of ${email}: ${status}`);
    madeAccount(email);
  }

  type Case = { name: string; expect: number; run(): Promise<{ status: number; ms: number }> };
  const cases: Case[] = [
    {
      name: 'sign-up, new email (baseline)',
      expect: 202,
      run: async () => {
        const email = `new-${unique()}@example.com`;
        const r = await signUp(store.subdomain, email);
        madeAccount(email);
        return r;
      },
    },
    {
      name: 'sign-up, a customer the merchant made',
      expect: 202,
      run: async () => {
        const email = `known-${unique()}@example.com`;
        await call('POST', '/v1/customers', { email, first_name: 'Known' }, admin);
        return signUp(store.subdomain, email);
      },
    },
    { name: 'sign-up, an email with an account', expect: 202, run: () => signUp(store.subdomain, withAccount.signUp.shift()!) },
    { name: 'sign-up, no such store', expect: 202, run: () => signUp(`nope-${unique()}`, `someone-${unique()}@example.com`) },
    { name: 'login, wrong password', expect: 401, run: () => logIn(withAccount.logIn.shift()!) },
    { name: 'login, unknown email', expect: 401, run: () => logIn(`ghost-${unique()}@example.com`) },
  ];
  const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  // A warm-up round, not counted.
  for (const c of cases) await c.run();
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < cases.length; i++) {
      const c = cases[(round + i) % cases.length]!;
      const { status, ms } = await c.run();
      if (status !== c.expect) throw new Error(`${c.name}: ${status}`);
      times.get(c.name)!.push(ms);
    }
  }

  const baseline = percentile(times.get(cases[0]!.name)!, 0.5);
  console.log(`\nCustomer accounts, ${ROUNDS} rounds of each case, one request at a time`);
  for (const c of cases) {
    const xs = times.get(c.name)!;
    const p50 = percentile(xs, 0.5);
    console.log(
      `${c.name.padEnd(40)} p50 ${p50.toFixed(1).padStart(6)} ms   p99 ${percentile(xs, 0.99).toFixed(1).padStart(6)} ms   ratio of p50 ${(p50 / baseline).toFixed(2)}`,
    );
  }
} finally {
  web.kill('SIGTERM');
  await database.stop();
}
