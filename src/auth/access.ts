import type { Authenticator, MerchantPrincipal, Principal } from '../http/context.js';
import { SESSION_PREFIX, authenticateSession, type AuthenticatedSession } from './service.js';

/** What the session authenticator found for a principal: the merchant and session views it read. */
const found = new WeakMap<Principal, AuthenticatedSession>();

/** Merchant session tokens (`emp_session_…`) become merchant principals. */
export const sessionAuthenticator: Authenticator = {
  prefix: `${SESSION_PREFIX}_`,
  async authenticate(platform, token) {
    const auth = await authenticateSession(platform, token);
    if (!auth) return null;
    const operator = platform.config.apps.operatorEmails.includes(auth.merchant.email.toLowerCase());
    const principal: MerchantPrincipal = { kind: 'merchant', merchantId: auth.merchant.id, sessionId: auth.session.id, operator };
    found.set(principal, auth);
    return principal;
  },
};

/** The merchant and session views behind a principal this authenticator made. */
export function sessionViews(principal: MerchantPrincipal): AuthenticatedSession {
  const auth = found.get(principal);
  if (!auth) throw new Error('sessionViews: the principal was not made by the session authenticator');
  return auth;
}
