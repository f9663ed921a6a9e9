import { expect } from 'chai';
import { randomBytes } from 'node:crypto';

/**
 * A deployed environment for a test app (APP_ENV=staging: its own secrets, no development
 * defaults) behind a TLS proxy it trusts: requests say `X-Forwarded-Proto: https`.
 */
export const behindTlsProxy = (extra: Record<string, string> = {}): Record<string, string> => ({
  APP_ENV: 'staging',
  SECRETS_KEYS: `k1:${randomBytes(32).toString('base64url')}`,
  INTERNAL_SECRET: randomBytes(24).toString('hex'),
  TRUST_PROXY: 'true',
  ...extra,
});

/** A Set-Cookie line of a `__Host-` cookie as the platform sets it: Secure, Path=/, no Domain, HttpOnly, SameSite=Lax. */
export function expectHostCookie(line: string | undefined, name: string): void {
  expect(line, name).to.be.a('string');
  expect(line, name).to.match(new RegExp(`^__Host-${name}=`));
  expect(line, name).to.match(/;\s*secure/i);
  expect(line, name).to.match(/;\s*path=\/(;|$)/i);
  expect(line, name).to.match(/;\s*httponly/i);
  expect(line, name).to.match(/;\s*samesite=lax/i);
  expect(line, name).to.not.match(/domain=/i);
}
