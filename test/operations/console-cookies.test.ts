import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import { behindTlsProxy, expectHostCookie } from '../helpers/cookies.js';
import { givenMerchant, type GivenMerchant } from '../helpers/factories.js';

const OPERATOR = 'cookie-operator@example.com';

/**
 * The platform host's cookies outside development (docs/console.md, Signing in): a page on any
 * store's host can set cookies for the parent domain, so the merchant's session cookie and the
 * sign-in pages' pre-session cookie are `__Host-` cookies (Secure, Path=/, no Domain), and a cookie
 * of the plain name is no one's: no session fixation, no login CSRF. The console and the consent
 * page read the same session cookie.
 */
describe('Sign-in and console cookies outside development (APP_ENV=staging, behind a TLS proxy)', () => {
  const { app, api } = useTestApp('console_cookies', behindTlsProxy({ OPERATOR_EMAILS: OPERATOR }));
  let operator: GivenMerchant;
  before(async () => {
    operator = await givenMerchant(api, { email: OPERATOR });
  });

  type Got = { status: number; html: string; location: string | null; setCookies: string[] };
  /** A request as a browser behind the TLS proxy sends it: cookies given, forms same-origin, no redirects followed. */
  async function send(path: string, cookies: Record<string, string>, form?: Record<string, string>): Promise<Got> {
    const headers: Record<string, string> = { accept: 'text/html', 'x-forwarded-proto': 'https' };
    const jar = Object.entries(cookies);
    if (jar.length) headers.cookie = jar.map(([k, v]) => `${k}=${v}`).join('; ');
    if (form) Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' });
    const res = await fetch(app.url + path, {
      method: form ? 'POST' : 'GET',
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: 'manual',
    });
    return { status: res.status, html: await res.text(), location: res.headers.get('location'), setCookies: res.headers.getSetCookie() };
  }
  /** A cookie set by an answer: its value and its Set-Cookie line. */
  const cookieOf = (got: Got, name: string) => {
    const line = got.setCookies.find((l) => l.startsWith(`${name}=`));
    return line ? { line, value: line.slice(name.length + 1, line.indexOf(';')) } : null;
  };
  const csrfOf = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? '';

  it('signs in with __Host- cookies: the sign-in pages’ pre-session cookie, then the session the console reads', async () => {
    const form = await send('/login', {});
    const login = cookieOf(form, '__Host-emporium_login');
    expectHostCookie(login?.line, 'emporium_login');
    expect(cookieOf(form, 'emporium_login')).to.equal(null);
    const signedIn = await send(
      '/login',
      { '__Host-emporium_login': login!.value },
      { csrf_token: csrfOf(form.html), email: OPERATOR, password: operator.password, return_to: '/console' },
    );
    expect([signedIn.status, signedIn.location], signedIn.html).to.deep.equal([303, '/console']);
    const session = cookieOf(signedIn, '__Host-emporium_session');
    expectHostCookie(session?.line, 'emporium_session');
    expect(cookieOf(signedIn, 'emporium_session')).to.equal(null);
    expect((await send('/console', { '__Host-emporium_session': session!.value })).status).to.equal(200);
  });

  it('ignores a session or sign-in cookie of the plain name: another host under the parent domain could have set it', async () => {
    // Session fixation: an operator's session in a plain-named cookie opens nothing.
    const fixated = await send('/console', { emporium_session: operator.token });
    expect([fixated.status, fixated.location?.split('?')[0]]).to.deep.equal([303, '/login']);
    expect((await send('/', { emporium_session: operator.token })).html).to.not.include(OPERATOR);
    // Login CSRF: a pre-session cookie and its form token, taken by someone else and planted under the plain name, sign no one in.
    const theirs = await send('/login', {});
    const planted = cookieOf(theirs, '__Host-emporium_login')!.value;
    const attempt = await send('/login', { emporium_login: planted }, { csrf_token: csrfOf(theirs.html), email: OPERATOR, password: operator.password });
    expect(attempt.status, attempt.html).to.equal(403);
    expect(cookieOf(attempt, '__Host-emporium_session')).to.equal(null);
  });
});
