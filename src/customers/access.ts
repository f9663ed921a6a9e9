import type { Authenticator, CustomerPrincipal, Principal } from '../http/context.js';
import { CUSTOMER_SESSION_PREFIX, authenticateCustomerSession, type AuthenticatedCustomer } from './account.js';

/** The session behind a principal this authenticator made (logout and password change need its id). */
const found = new WeakMap<Principal, AuthenticatedCustomer>();

/** Customer session tokens (`emp_cs_…`) become customer principals of the session's store. */
export const customerSessionAuthenticator: Authenticator = {
  prefix: `${CUSTOMER_SESSION_PREFIX}_`,
  async authenticate(platform, token) {
    const session = await authenticateCustomerSession(platform, token);
    if (!session) return null;
    const principal: CustomerPrincipal = { kind: 'customer', customerId: session.customerId, storeId: session.storeId };
    found.set(principal, session);
    return principal;
  },
};

export function customerSession(principal: CustomerPrincipal): AuthenticatedCustomer {
  const session = found.get(principal);
  if (!session) throw new Error('customerSession: the principal was not made by the customer session authenticator');
  return session;
}
