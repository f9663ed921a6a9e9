import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import type { Client } from '../helpers/http.js';

/** Real time plus an offset that `nextWindow()` moves on to the start of the next fixed window of `windowMs`. */
function windowClock(windowMs: number) {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    nextWindow() {
      offset += windowMs - ((Date.now() + offset) % windowMs);
    },
  };
}

/**
 * Behind proxies (TRUST_PROXY=true) the rate-limit key is the address the outermost proxy of
 * ours saw: TRUST_PROXY_HOPS entries from the right of X-Forwarded-For. Everything to its
 * left is the client's own writing. Sign-up allows 50 per IP and 5 per email in 15 minutes.
 */
describe('Rate-limit keys behind proxies (TRUST_PROXY, TRUST_PROXY_HOPS)', () => {
  /**
   * Sign-up limits count in fixed 15-minute windows (src/ratelimit): a run that crosses a
   * window's end starts counting again and cannot reach the limit (CI once crossed one). The
   * apps' clock is real time moved on to the start of a window before each test, so a test's
   * counts fall in one window however long the machine takes over them.
   */
  const clock = windowClock(15 * 60_000);
  const { app: oneHop, api } = useTestApp('proxy_one_hop', { TRUST_PROXY: 'true' }, { clock });
  const { api: api2 } = useTestApp('proxy_two_hops', { TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '2' }, { clock });
  beforeEach(() => clock.nextWindow());

  let n = 0;
  const signUp = (c: Client, forwardedFor: string, email = `proxied-${++n}-${Date.now()}@example.com`) =>
    c.post('/v1/auth/signup', { email, password: 'long enough password', name: 'Proxied' }, { headers: { 'x-forwarded-for': forwardedFor } });

  it('counts 55 sign-ups with rotating left-most X-Forwarded-For entries as one client: the 51st is 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 55; i++) statuses.push((await signUp(api, `10.0.${i}.${i + 1}, 203.0.113.7`)).status);
    expect(
      statuses.slice(0, 50).filter((s) => s === 429),
      'the first 50 pass',
    ).to.deep.equal([]);
    expect(statuses.slice(50)).to.deep.equal([429, 429, 429, 429, 429]);
    const limited = await signUp(api, '198.18.0.1, 203.0.113.7');
    expect(limited.body.error.code).to.equal('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 900);
    // Another client behind the same proxy is another key.
    expect((await signUp(api, '10.0.0.1, 198.51.100.20')).status).to.not.equal(429);
  });

  it('with TRUST_PROXY_HOPS=2 takes the second entry from the right', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 51; i++) statuses.push((await signUp(api2, `172.16.${i}.1, 203.0.113.8, 192.0.2.1`)).status);
    expect(statuses.slice(0, 50).filter((s) => s === 429)).to.deep.equal([]);
    expect(statuses[50]).to.equal(429);
    // The same inner proxy in front of another client: another key.
    expect((await signUp(api2, '172.16.0.1, 203.0.113.9, 192.0.2.1')).status).to.not.equal(429);
  });

  it('counts IPv6 clients by their /64 network', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 51; i++)
      statuses.push((await signUp(api, `2001:db8:aa:${(i % 3).toString(16)}::1, 2001:db8:77:1:${(i + 1).toString(16)}::${i}`)).status);
    expect(statuses.slice(0, 50).filter((s) => s === 429)).to.deep.equal([]);
    expect(statuses[50]).to.equal(429);
    expect((await signUp(api, '2001:db8:77:2::1')).status, 'the next /64 is another client').to.not.equal(429);
    // An IPv4-mapped IPv6 address is its IPv4 address; garbage falls back to the socket's peer.
    expect((await signUp(api, '::ffff:198.51.100.30')).status).to.not.equal(429);
    expect((await signUp(api, 'not-an-address')).status).to.not.equal(429);
  });

  it('limits sign-ups per email, whatever the address: the 6th for one email in the window is 429', async () => {
    const email = `popular-${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await signUp(api, `192.0.2.${i + 10}, 198.51.100.${i + 40}`, email.toUpperCase())).status);
    expect(statuses.slice(0, 5).filter((s) => s === 429)).to.deep.equal([]);
    expect(statuses[5]).to.equal(429);
    expect(await oneHop.platform.db.collection('merchants').countDocuments({ email })).to.equal(1);
  });
});
