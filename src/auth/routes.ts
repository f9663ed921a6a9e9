import Router from '@koa/router';
import type { AppState } from '../http/context.js';
import { requireMerchant, resolveMerchant } from '../http/auth.js';
import { parseInput } from '../http/validate.js';
import { PlatformError } from '../errors.js';
import type { Platform } from '../platform.js';
import { listStoresOwnedBy } from '../stores/index.js';
import { EmailOnlyBody, NoBody, PasswordUpdateBody, SignInBody, SignUpBody, VerifyCodeBody } from './schemas.js';
import {
  requestPasswordReset,
  requestSigninCode,
  signIn,
  signOut,
  signUp,
  updatePassword,
  verifySigninCode,
} from './service.js';

/** Spec 4.2: merchant identity and sessions, mounted at /v1/auth. */
export function authRoutes(platform: Platform): Router<AppState> {
  const router = new Router<AppState>();
  const merchant = requireMerchant(platform);
  const accepted = { accepted: true, message: 'If an account exists for that email, a message is on its way' };

  router.post('/signup', async (ctx) => {
    const body = parseInput(SignUpBody, ctx.request.body, 'body');
    ctx.status = 201;
    ctx.body = { data: await signUp(platform, body, { ip: ctx.ip }) };
  });

  router.post('/signin', async (ctx) => {
    const body = parseInput(SignInBody, ctx.request.body, 'body');
    ctx.body = { data: await signIn(platform, body, { ip: ctx.ip }) };
  });

  router.post('/signin/otp', async (ctx) => {
    const body = parseInput(EmailOnlyBody, ctx.request.body, 'body');
    await requestSigninCode(platform, body, { ip: ctx.ip });
    ctx.status = 202;
    ctx.body = { data: accepted };
  });

  router.post('/signin/otp/verify', async (ctx) => {
    const body = parseInput(VerifyCodeBody, ctx.request.body, 'body');
    ctx.body = { data: await verifySigninCode(platform, body, { ip: ctx.ip }) };
  });

  router.post('/signout', merchant, async (ctx) => {
    parseInput(NoBody, ctx.request.body, 'body');
    await signOut(platform, ctx.state.auth!.sessionId);
    ctx.status = 204;
  });

  router.post('/password/reset', async (ctx) => {
    const body = parseInput(EmailOnlyBody, ctx.request.body, 'body');
    await requestPasswordReset(platform, body, { ip: ctx.ip });
    ctx.status = 202;
    ctx.body = { data: accepted };
  });

  router.post('/password/update', async (ctx) => {
    const body = parseInput(PasswordUpdateBody, ctx.request.body, 'body');
    if (body.reset_token !== undefined) {
      ctx.body = { data: await updatePassword(platform, { via: 'reset_token', resetToken: body.reset_token, newPassword: body.new_password }, { ip: ctx.ip }) };
      return;
    }
    // The current-password form needs the session it is changed from.
    const auth = await resolveMerchant(platform, ctx);
    if (!auth) throw new PlatformError('unauthenticated', 'unauthenticated', 'Changing the password with current_password needs a session (Authorization: Bearer <session token>)');
    ctx.body = {
      data: await updatePassword(platform, {
        via: 'current_password',
        merchantId: auth.merchantId,
        sessionId: auth.sessionId,
        currentPassword: body.current_password!,
        newPassword: body.new_password,
      }, { ip: ctx.ip }),
    };
  });

  router.get('/custom/session', merchant, async (ctx) => {
    const { merchant: me, session, merchantId } = ctx.state.auth!;
    ctx.body = { data: { merchant: me, session, stores: await listStoresOwnedBy(platform, merchantId) } };
  });

  return router;
}
