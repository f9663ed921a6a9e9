import type { Module } from '../module.js';
import { AUTH_ERROR_CODES } from './errors.js';
import { sessionAuthenticator } from './access.js';
import { authJobs } from './jobs.js';
import { signInPages } from './pages.js';
import { authRoutes } from './routes.js';
import { authIndexes } from './models.js';
export { SweepExpiredCredentials } from './jobs.js';
export { isSessionLive, readMerchant, signOutOtherSessions, sweepExpiredCredentials, updateMerchant, updatePassword } from './service.js';
export { PASSWORD_MIN, PasswordUpdateBody, UpdateMerchantBody } from './schemas.js';
export { merchantEmail } from './contact.js';
export { LOGIN_COOKIE, pageUser, safeReturnTo } from './pages.js';
export type { MerchantView, SessionView } from './present.js';

/** Merchant accounts and sessions: /v1/auth, and the session authenticator. */
export const authModule: Module = {
  name: 'auth',
  errorCodes: AUTH_ERROR_CODES,
  indexes: authIndexes,
  routes: [{ path: '/v1/auth', router: authRoutes }],
  // The sign-in pages (docs/console.md): GET /, /login, /login/code, /login/code/verify, /logout.
  pages: [{ path: '', router: signInPages }],
  authenticators: [sessionAuthenticator],
  jobs: authJobs,
};
