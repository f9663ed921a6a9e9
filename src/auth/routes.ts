import { PlatformError } from '../errors.js';
import { resolvePrincipal } from '../http/auth.js';
import { clientAddress } from '../http/client-address.js';
import type { AppRouter } from '../http/context.js';
import { routes } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { listStoresOwnedBy } from '../stores/index.js';
import { sessionViews } from './access.js';
import { EmailOnlyBody, PasswordUpdateBody, SignInBody, SignUpBody, UpdateMerchantBody, VerifyCodeBody } from './schemas.js';
import {
  requestPasswordReset,
  requestSigninCode,
  signIn,
  signOut,
  signOutOtherSessions,
  signUp,
  updateMerchant,
  updatePassword,
  verifySigninCode,
} from './service.js';

/** Spec 4.2: merchant identity and sessions, mounted at /v1/auth. */
export function authRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  const accepted = { accepted: true, message: 'If an account exists for that email, a message is on its way' };
  const access = 'public';

  // 202 for a new email and for one that has an account alike; the client then signs in.
  on.post('/signup', { access, body: SignUpBody, status: 202 }, ({ ctx, body }) => signUp(platform, body, { ip: clientAddress(ctx) }));

  on.post('/signin', { access, body: SignInBody }, ({ ctx, body }) => signIn(platform, body, { ip: clientAddress(ctx) }));

  on.post('/signin/otp', { access, body: EmailOnlyBody, status: 202 }, async ({ ctx, body }) => {
    await requestSigninCode(platform, body, { ip: clientAddress(ctx) });
    return accepted;
  });

  on.post('/signin/otp/verify', { access, body: VerifyCodeBody }, ({ ctx, body }) => verifySigninCode(platform, body, { ip: clientAddress(ctx) }));

  on.post('/signout', { access: 'merchant', respond: 'empty' }, ({ merchant }) => signOut(platform, merchant.sessionId));

  on.post('/password/reset', { access, body: EmailOnlyBody, status: 202 }, async ({ ctx, body }) => {
    await requestPasswordReset(platform, body, { ip: clientAddress(ctx) });
    return accepted;
  });

  on.post('/password/update', { access, body: PasswordUpdateBody }, async ({ ctx, body }) => {
    if (body.reset_token !== undefined) {
      return updatePassword(platform, { via: 'reset_token', resetToken: body.reset_token, newPassword: body.new_password }, { ip: clientAddress(ctx) });
    }
    // The current-password form needs the session it is changed from.
    const principal = await resolvePrincipal(platform, ctx);
    if (principal?.kind !== 'merchant') {
      throw new PlatformError(
        'unauthenticated',
        'unauthenticated',
        'Changing the password with current_password needs a session (Authorization: Bearer <session token>)',
      );
    }
    return updatePassword(
      platform,
      {
        via: 'current_password',
        merchantId: principal.merchantId,
        sessionId: principal.sessionId,
        currentPassword: body.current_password!,
        newPassword: body.new_password,
      },
      { ip: clientAddress(ctx) },
    );
  });

  on.get('/custom/session', { access: 'merchant' }, async ({ merchant }) => {
    const { merchant: me, session } = sessionViews(merchant);
    return { merchant: me, session, stores: await listStoresOwnedBy(platform, merchant.merchantId) };
  });

  on.patch('/custom/merchant', { access: 'merchant', body: UpdateMerchantBody }, ({ merchant, body }) => updateMerchant(platform, merchant.merchantId, body));

  on.post('/custom/signout-others', { access: 'merchant' }, ({ merchant }) => signOutOtherSessions(platform, merchant.merchantId, merchant.sessionId));

  return on.router;
}
