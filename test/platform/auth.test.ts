import { expect } from 'chai';
import { readOutbox } from '../../src/messages/index.js';
import { useTestApp } from '../helpers/app.js';
import { counts } from '../helpers/database.js';
import { givenMerchant, givenStore } from '../helpers/factories.js';
import { crash, withFault } from '../helpers/faults.js';

describe('Merchant identity (/v1/auth)', () => {
  const { app, api } = useTestApp('auth');

  async function expectRejectedUnchanged(path: string, body: unknown, status = 400, code = 'invalid_input') {
    const before = await counts(app.platform.db);
    const res = await api.post(path, body);
    expect(res.status, `${path} ${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).to.equal(status);
    expect(res.body.error.code).to.equal(code);
    const after = await counts(app.platform.db);
    if (status !== 400) {
      // Input that parses counts against the rate limits; only that counter may move.
      delete before.rate_limits;
      delete after.rate_limits;
    }
    expect(after).to.deep.equal(before);
    return res;
  }

  async function latestMessage(email: string, kind: string) {
    // The webhooks worker is not running in this file: read the outbox record as written.
    const [message] = (await readOutbox(app.platform, email)).filter((m) => m.kind === kind);
    expect(message, `no ${kind} message for ${email}`).to.exist;
    return message!;
  }

  describe('POST /v1/auth/signup', () => {
    const SIGNUP_ANSWER = {
      data: {
        accepted: true,
        message: 'Sign-up received: sign in with your email and password. If the email already had an account, a message is on its way to it',
      },
    };

    it('creates a merchant with a normalised email and answers 202; the client then signs in', async () => {
      const email = `grace.hopper-${Date.now()}@example.com`;
      const res = await api.post('/v1/auth/signup', {
        email: `  ${email.replace('grace.hopper', 'Grace.Hopper').toUpperCase()} `,
        password: 'a long enough password',
        name: ' Grace ',
      });
      expect(res.status).to.equal(202);
      expect(res.body).to.deep.equal(SIGNUP_ANSWER);
      const signin = await api.post('/v1/auth/signin', { email, password: 'a long enough password' });
      expect(signin.status).to.equal(200);
      expect(signin.body.data.merchant).to.include({ email, name: 'Grace' });
      expect(signin.body.data.merchant).to.have.all.keys('id', 'email', 'name', 'created_at');
      expect(signin.body.data.session.token).to.match(/^emp_session_[A-Za-z0-9_-]{43}$/);
      const me = await api.get('/v1/auth/custom/session', { token: signin.body.data.session.token });
      expect(me.status).to.equal(200);
      expect(me.body.data.merchant.email).to.equal(email);
      // Nothing is sent for a new account: the sign-in is the confirmation.
      expect(await readOutbox(app.platform, email)).to.deep.equal([]);
    });

    it('answers an email that already has an account exactly as a new one, changes nothing, and tells the owner', async () => {
      const owner = await givenMerchant(api);
      const fresh = await api.post('/v1/auth/signup', { email: `fresh-${Date.now()}@example.com`, password: 'another long password', name: 'Fresh' });
      const merchants = app.platform.db.collection('merchants');
      const before = await merchants.findOne({ email: owner.email });

      const taken = await api.post('/v1/auth/signup', { email: owner.email.toUpperCase(), password: 'another long password', name: 'Mallory' });
      expect(taken.status).to.equal(fresh.status);
      expect(taken.body).to.deep.equal(fresh.body);
      expect(taken.body).to.deep.equal(SIGNUP_ANSWER);
      expect(await merchants.find({ email: owner.email }).toArray()).to.deep.equal([before]);
      expect((await api.post('/v1/auth/signin', { email: owner.email, password: 'another long password' })).status).to.equal(401);
      expect((await api.post('/v1/auth/signin', { email: owner.email, password: owner.password })).status).to.equal(200);

      const notice = await latestMessage(owner.email, 'account_exists');
      expect(notice.to).to.equal(owner.email);
      expect(notice.text).to.match(/already has one/);
      expect(notice.text).to.include('/v1/auth/password/reset');
      expect(notice.text).to.not.include('another long password');
    });

    it('refuses bad input and changes nothing', async () => {
      const ok = { email: 'new@example.com', password: 'long enough password', name: 'New' };
      await expectRejectedUnchanged('/v1/auth/signup', { ...ok, email: 'not-an-email' });
      await expectRejectedUnchanged('/v1/auth/signup', { ...ok, password: 'short' });
      await expectRejectedUnchanged('/v1/auth/signup', { ...ok, password: 'x'.repeat(201) });
      await expectRejectedUnchanged('/v1/auth/signup', { ...ok, name: '' });
      await expectRejectedUnchanged('/v1/auth/signup', { ...ok, name: 7 });
      await expectRejectedUnchanged('/v1/auth/signup', { ...ok, admin: true });
      await expectRejectedUnchanged('/v1/auth/signup', {});
      const res = await expectRejectedUnchanged('/v1/auth/signup', { ...ok, password: 'short' });
      expect(res.body.error.details).to.deep.equal(['body.password: must be at least 10 characters']);
    });
  });

  describe('POST /v1/auth/signin and /signout', () => {
    it('signs in with the right password, in any email case, and signs out', async () => {
      const m = await givenMerchant(api);
      const res = await api.post('/v1/auth/signin', { email: m.email.toUpperCase(), password: m.password });
      expect(res.status).to.equal(200);
      expect(res.body.data.session.method).to.equal('password');
      const token = res.body.data.session.token;
      expect(token).to.not.equal(m.token);
      expect((await api.get('/v1/auth/custom/session', { token })).status).to.equal(200);

      const out = await api.post('/v1/auth/signout', undefined, { token });
      expect(out.status).to.equal(204);
      const after = await api.get('/v1/auth/custom/session', { token });
      expect(after.status).to.equal(401);
      expect(after.headers.get('www-authenticate')).to.match(/^Bearer realm="emporium", error="invalid_token"/);
      // The other session is untouched.
      expect((await api.get('/v1/auth/custom/session', { token: m.token })).status).to.equal(200);
    });

    it('answers a wrong password and an unknown email the same way', async () => {
      const m = await givenMerchant(api);
      const wrong = await api.post('/v1/auth/signin', { email: m.email, password: 'not the password' });
      const unknown = await api.post('/v1/auth/signin', { email: 'nobody@example.com', password: 'not the password' });
      expect(wrong.status).to.equal(401);
      expect(unknown.status).to.equal(401);
      expect(wrong.body.error.code).to.equal('invalid_credentials');
      expect(unknown.body.error.code).to.equal(wrong.body.error.code);
      expect(unknown.body.error.message).to.equal(wrong.body.error.message);
    });

    it('refuses bad input and changes nothing', async () => {
      await expectRejectedUnchanged('/v1/auth/signin', { email: 'a@example.com' });
      await expectRejectedUnchanged('/v1/auth/signin', { email: 'a@example.com', password: 12345 });
      await expectRejectedUnchanged('/v1/auth/signin', { email: 'a@example.com', password: 'x', remember: true });
    });

    it('rate-limits sign-in attempts per email with 429 and Retry-After', async () => {
      // Signed up without givenMerchant's sign-in, so all 10 attempts of the window are the test's.
      const m = { email: `limited-${Date.now()}@example.com`, password: 'the right password' };
      expect((await api.post('/v1/auth/signup', { ...m, name: 'Limited' })).status).to.equal(202);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await api.post('/v1/auth/signin', { email: m.email, password: 'wrong password' })).status);
      expect(statuses.slice(0, 10)).to.deep.equal(Array(10).fill(401));
      expect(statuses[10]).to.equal(429);
      const limited = await api.post('/v1/auth/signin', { email: m.email, password: m.password });
      expect(limited.status).to.equal(429);
      expect(limited.body.error.code).to.equal('rate_limited');
      expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 900);
    });

    it('signout and session need a valid bearer token', async () => {
      expect((await api.post('/v1/auth/signout')).status).to.equal(401);
      expect((await api.post('/v1/auth/signout', undefined, { token: 'emp_session_forged' })).status).to.equal(401);
      const res = await api.get('/v1/auth/custom/session', { headers: { authorization: 'Basic abc' } });
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('unauthenticated');
    });
  });

  describe('GET /v1/auth/custom/session', () => {
    it('returns the merchant, the session and only the stores they own', async () => {
      const a = await givenMerchant(api);
      const b = await givenMerchant(api);
      const storeA = await givenStore(api, a);
      await givenStore(api, b);
      const res = await api.get('/v1/auth/custom/session', { token: a.token });
      expect(res.status).to.equal(200);
      expect(res.body.data.merchant.id).to.equal(a.id);
      expect(res.body.data.session).to.have.all.keys('id', 'method', 'created_at', 'expires_at');
      expect(res.body.data.stores.map((s: { id: string }) => s.id)).to.deep.equal([storeA.id]);
    });
  });

  describe('one-time sign-in codes', () => {
    it('sends a 6-digit code that signs in once', async () => {
      const m = await givenMerchant(api);
      const ask = await api.post('/v1/auth/signin/otp', { email: m.email });
      expect(ask.status).to.equal(202);
      expect(JSON.stringify(ask.body)).to.not.match(/\d{6}/);
      const message = await latestMessage(m.email, 'signin_code');
      const code = /\b(\d{6})\b/.exec(message.text!)![1]!;

      const res = await api.post('/v1/auth/signin/otp/verify', { email: m.email, code });
      expect(res.status).to.equal(200);
      expect(res.body.data.session.method).to.equal('otp');
      const again = await api.post('/v1/auth/signin/otp/verify', { email: m.email, code });
      expect(again.status).to.equal(401);
      expect(again.body.error.code).to.equal('invalid_code');
    });

    it('answers the same for an email without an account, and sends nothing', async () => {
      const m = await givenMerchant(api);
      const known = await api.post('/v1/auth/signin/otp', { email: m.email });
      const unknown = await api.post('/v1/auth/signin/otp', { email: 'ghost@example.com' });
      expect(unknown.status).to.equal(known.status);
      expect(unknown.body).to.deep.equal(known.body);
      expect(await readOutbox(app.platform, 'ghost@example.com')).to.deep.equal([]);
    });

    it('burns the code after 5 wrong tries', async () => {
      const m = await givenMerchant(api);
      await api.post('/v1/auth/signin/otp', { email: m.email });
      const code = /\b(\d{6})\b/.exec((await latestMessage(m.email, 'signin_code')).text!)![1]!;
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) expect((await api.post('/v1/auth/signin/otp/verify', { email: m.email, code: wrong })).status).to.equal(401);
      const right = await api.post('/v1/auth/signin/otp/verify', { email: m.email, code });
      expect(right.status).to.equal(401);
      expect(right.body.error.code).to.equal('invalid_code');
    });

    it('counts parallel guesses exactly: no more than 5 tries, even all at once', async () => {
      const m = await givenMerchant(api);
      await api.post('/v1/auth/signin/otp', { email: m.email });
      const code = /\b(\d{6})\b/.exec((await latestMessage(m.email, 'signin_code')).text!)![1]!;
      const guesses = Array.from({ length: 9 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
      const statuses = (await Promise.all(guesses.map((g) => api.post('/v1/auth/signin/otp/verify', { email: m.email, code: g })))).map((r) => r.status);
      expect(statuses.every((s) => s === 401)).to.equal(true);
      expect((await app.platform.db.collection('signin_codes').findOne({ email: m.email }))?.attempts).to.equal(5);
      expect((await api.post('/v1/auth/signin/otp/verify', { email: m.email, code })).status).to.equal(401);
    });

    it('refuses an expired code', async () => {
      const m = await givenMerchant(api);
      await api.post('/v1/auth/signin/otp', { email: m.email });
      const code = /\b(\d{6})\b/.exec((await latestMessage(m.email, 'signin_code')).text!)![1]!;
      await app.platform.db.collection('signin_codes').updateOne({ email: m.email }, { $set: { expires_at: new Date(Date.now() - 1000) } });
      expect((await api.post('/v1/auth/signin/otp/verify', { email: m.email, code })).status).to.equal(401);
    });

    it('refuses bad input and changes nothing', async () => {
      await expectRejectedUnchanged('/v1/auth/signin/otp', { email: 'nope' });
      await expectRejectedUnchanged('/v1/auth/signin/otp', { email: 'a@example.com', phone: '1' });
      await expectRejectedUnchanged('/v1/auth/signin/otp/verify', { email: 'a@example.com', code: '12345' });
      await expectRejectedUnchanged('/v1/auth/signin/otp/verify', { email: 'a@example.com', code: 123456 });
      await expectRejectedUnchanged('/v1/auth/signin/otp/verify', { email: 'a@example.com', code: 'abcdef' });
    });

    it('rate-limits code requests per email', async () => {
      const m = await givenMerchant(api);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await api.post('/v1/auth/signin/otp', { email: m.email })).status);
      expect(statuses).to.deep.equal([202, 202, 202, 202, 202, 429]);
    });
  });

  describe('password reset and update', () => {
    it('resets the password with an emailed token, once, and revokes every session', async () => {
      const m = await givenMerchant(api);
      const ask = await api.post('/v1/auth/password/reset', { email: m.email });
      expect(ask.status).to.equal(202);
      const token = /(emp_reset_[A-Za-z0-9_-]+)/.exec((await latestMessage(m.email, 'password_reset')).text!)![1]!;
      expect(JSON.stringify(ask.body)).to.not.include(token);

      const res = await api.post('/v1/auth/password/update', { reset_token: token, new_password: 'a brand new password' });
      expect(res.status).to.equal(200);
      expect(res.body.data.revoked_sessions).to.equal(1);
      expect((await api.get('/v1/auth/custom/session', { token: m.token })).status).to.equal(401);
      expect((await api.post('/v1/auth/signin', { email: m.email, password: m.password })).status).to.equal(401);
      expect((await api.post('/v1/auth/signin', { email: m.email, password: 'a brand new password' })).status).to.equal(200);

      const reused = await api.post('/v1/auth/password/update', { reset_token: token, new_password: 'yet another password' });
      expect(reused.status).to.equal(401);
      expect(reused.body.error.code).to.equal('invalid_reset_token');
    });

    it('answers a reset request the same for an unknown email', async () => {
      const m = await givenMerchant(api);
      const known = await api.post('/v1/auth/password/reset', { email: m.email });
      const unknown = await api.post('/v1/auth/password/reset', { email: 'nobody-here@example.com' });
      expect(unknown.status).to.equal(known.status);
      expect(unknown.body).to.deep.equal(known.body);
    });

    it('refuses an expired reset token', async () => {
      const m = await givenMerchant(api);
      await api.post('/v1/auth/password/reset', { email: m.email });
      const token = /(emp_reset_[A-Za-z0-9_-]+)/.exec((await latestMessage(m.email, 'password_reset')).text!)![1]!;
      await app.platform.db.collection('password_resets').updateMany({}, { $set: { expires_at: new Date(Date.now() - 1000) } });
      expect((await api.post('/v1/auth/password/update', { reset_token: token, new_password: 'a brand new password' })).status).to.equal(401);
    });

    it('changes the password with the current one, keeping this session and revoking the others', async () => {
      const m = await givenMerchant(api);
      const other = (await api.post('/v1/auth/signin', { email: m.email, password: m.password })).body.data.session.token;
      const res = await api.post('/v1/auth/password/update', { current_password: m.password, new_password: 'changed password 123' }, { token: m.token });
      expect(res.status).to.equal(200);
      expect(res.body.data.revoked_sessions).to.equal(1);
      expect((await api.get('/v1/auth/custom/session', { token: m.token })).status).to.equal(200);
      expect((await api.get('/v1/auth/custom/session', { token: other })).status).to.equal(401);
    });

    it('leaves no other session, code or reset token alive when the step after the hash change fails', async () => {
      const m = await givenMerchant(api);
      const other = (await api.post('/v1/auth/signin', { email: m.email, password: m.password })).body.data.session.token;
      expect((await api.post('/v1/auth/signin/otp', { email: m.email })).status).to.equal(202);
      const code = /\b(\d{6})\b/.exec((await latestMessage(m.email, 'signin_code')).text!)![1]!;
      await api.post('/v1/auth/password/reset', { email: m.email });
      const resetToken = /(emp_reset_[A-Za-z0-9_-]+)/.exec((await latestMessage(m.email, 'password_reset')).text!)![1]!;

      // The process fails right after the password changed, before anything else of the update.
      const res = await withFault(app.platform, 'sessions', 'deleteMany', crash, () =>
        api.post('/v1/auth/password/update', { current_password: m.password, new_password: 'changed password 456' }, { token: m.token }),
      );
      expect(res.status).to.equal(500);
      expect((await api.post('/v1/auth/signin', { email: m.email, password: 'changed password 456' })).status, 'the new password is in force').to.equal(200);
      expect((await api.get('/v1/auth/custom/session', { token: other })).status, 'the other session').to.equal(401);
      expect((await api.get('/v1/auth/custom/session', { token: m.token })).status, 'the session it was changed from').to.equal(200);
      expect((await api.post('/v1/auth/signin/otp/verify', { email: m.email, code })).status, 'the earlier sign-in code').to.equal(401);
      expect(
        (await api.post('/v1/auth/password/update', { reset_token: resetToken, new_password: 'an attacker password' })).status,
        'the earlier reset token',
      ).to.equal(401);
    });

    it('leaves no session alive after a reset whose step after the hash change fails', async () => {
      const m = await givenMerchant(api);
      const other = (await api.post('/v1/auth/signin', { email: m.email, password: m.password })).body.data.session.token;
      await api.post('/v1/auth/password/reset', { email: m.email });
      const token = /(emp_reset_[A-Za-z0-9_-]+)/.exec((await latestMessage(m.email, 'password_reset')).text!)![1]!;
      const res = await withFault(app.platform, 'sessions', 'deleteMany', crash, () =>
        api.post('/v1/auth/password/update', { reset_token: token, new_password: 'a brand new password' }),
      );
      expect(res.status).to.equal(500);
      expect((await api.post('/v1/auth/signin', { email: m.email, password: 'a brand new password' })).status).to.equal(200);
      for (const t of [m.token, other]) expect((await api.get('/v1/auth/custom/session', { token: t })).status).to.equal(401);
    });

    it('does not let a sign-in with the old password that finishes after the change keep its session', async () => {
      const m = await givenMerchant(api);
      let changed: number | null = null;
      // The sign-in has checked the old password; before it writes its session, the password changes.
      const signin = await withFault(
        app.platform,
        'sessions',
        'insertOne',
        async (real, args) => {
          if (changed === null) {
            changed = (await api.post('/v1/auth/password/update', { current_password: m.password, new_password: 'changed password 789' }, { token: m.token }))
              .status;
          }
          return real(...args);
        },
        () => api.post('/v1/auth/signin', { email: m.email, password: m.password }),
      );
      expect(changed).to.equal(200);
      expect(signin.status).to.equal(200);
      expect((await api.get('/v1/auth/custom/session', { token: signin.body.data.session.token })).status).to.equal(401);
      expect((await api.get('/v1/auth/custom/session', { token: m.token })).status).to.equal(200);
    });

    it('applies one of two password changes that overlap, and answers the other 409 password_changed', async () => {
      const m = await givenMerchant(api);
      const other = (await api.post('/v1/auth/signin', { email: m.email, password: m.password })).body.data.session.token;
      let inner: number | null = null;
      // The first change has checked the current password; before it writes, another session changes it.
      const outer = await withFault(
        app.platform,
        'merchants',
        'updateOne',
        async (real, args) => {
          if (inner === null) {
            inner = -1;
            inner = (await api.post('/v1/auth/password/update', { current_password: m.password, new_password: 'the other change 1' }, { token: other })).status;
          }
          return real(...args);
        },
        () => api.post('/v1/auth/password/update', { current_password: m.password, new_password: 'the first change 1' }, { token: m.token }),
      );
      expect(inner).to.equal(200);
      expect(outer.status).to.equal(409);
      expect(outer.body.error.code).to.equal('password_changed');
      expect((await api.post('/v1/auth/signin', { email: m.email, password: 'the other change 1' })).status).to.equal(200);
      expect((await api.post('/v1/auth/signin', { email: m.email, password: 'the first change 1' })).status).to.equal(401);
      expect((await api.get('/v1/auth/custom/session', { token: other })).status).to.equal(200);
      expect((await api.get('/v1/auth/custom/session', { token: m.token })).status).to.equal(401);
    });

    it('refuses a wrong current password, or none, or a missing session', async () => {
      const m = await givenMerchant(api);
      const wrong = await api.post('/v1/auth/password/update', { current_password: 'not it at all', new_password: 'changed password 123' }, { token: m.token });
      expect(wrong.status).to.equal(401);
      expect(wrong.body.error.code).to.equal('invalid_credentials');
      const noSession = await api.post('/v1/auth/password/update', { current_password: m.password, new_password: 'changed password 123' });
      expect(noSession.status).to.equal(401);
      expect((await api.post('/v1/auth/signin', { email: m.email, password: m.password })).status).to.equal(200);
    });

    it('rate-limits current-password guesses per merchant', async () => {
      const m = await givenMerchant(api);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        statuses.push(
          (await api.post('/v1/auth/password/update', { current_password: `guess number ${i}`, new_password: 'changed password 123' }, { token: m.token }))
            .status,
        );
      }
      expect(statuses.slice(0, 10)).to.deep.equal(Array(10).fill(401));
      expect(statuses[10]).to.equal(429);
    });

    it('refuses bad input and changes nothing', async () => {
      await expectRejectedUnchanged('/v1/auth/password/update', { new_password: 'long enough password' });
      await expectRejectedUnchanged('/v1/auth/password/update', { reset_token: 'x', current_password: 'y', new_password: 'long enough password' });
      await expectRejectedUnchanged('/v1/auth/password/update', { reset_token: 'x', new_password: 'short' });
      await expectRejectedUnchanged('/v1/auth/password/update', { reset_token: 'x', new_password: 'long enough password', extra: 1 });
      await expectRejectedUnchanged('/v1/auth/password/reset', { email: ['a@example.com'] });
    });
  });

  describe('PATCH /v1/auth/custom/merchant', () => {
    it('changes the name, trimmed, and nothing else', async () => {
      const m = await givenMerchant(api);
      const res = await api.patch('/v1/auth/custom/merchant', { name: '  Grace Hopper ' }, { token: m.token });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ id: m.id, email: m.email, name: 'Grace Hopper' });
      expect((await api.get('/v1/auth/custom/session', { token: m.token })).body.data.merchant.name).to.equal('Grace Hopper');
      for (const body of [{ name: '  ' }, { name: 'x'.repeat(121) }, { name: 'Ok', email: 'other@example.com' }, {}]) {
        const bad = await api.patch('/v1/auth/custom/merchant', body, { token: m.token });
        expect(bad.status, JSON.stringify(body)).to.equal(400);
      }
      expect((await api.patch('/v1/auth/custom/merchant', { name: 'Nobody' })).status).to.equal(401);
      expect((await api.get('/v1/auth/custom/session', { token: m.token })).body.data.merchant).to.include({ name: 'Grace Hopper', email: m.email });
    });
  });

  describe('POST /v1/auth/custom/signout-others', () => {
    it('ends every other session, code and reset token, keeping this session signed in', async () => {
      const m = await givenMerchant(api);
      const others = [
        (await api.post('/v1/auth/signin', { email: m.email, password: m.password })).body.data.session.token,
        (await api.post('/v1/auth/signin', { email: m.email, password: m.password })).body.data.session.token,
      ];
      expect((await api.post('/v1/auth/signin/otp', { email: m.email })).status).to.equal(202);
      const code = /\b(\d{6})\b/.exec((await latestMessage(m.email, 'signin_code')).text!)![1]!;
      await api.post('/v1/auth/password/reset', { email: m.email });
      const resetToken = /(emp_reset_[A-Za-z0-9_-]+)/.exec((await latestMessage(m.email, 'password_reset')).text!)![1]!;
      const res = await api.post('/v1/auth/custom/signout-others', undefined, { token: m.token });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({ revoked_sessions: 2 });
      expect((await api.get('/v1/auth/custom/session', { token: m.token })).status).to.equal(200);
      for (const t of others) expect((await api.get('/v1/auth/custom/session', { token: t })).status).to.equal(401);
      expect((await api.post('/v1/auth/signin/otp/verify', { email: m.email, code })).status, 'the earlier sign-in code').to.equal(401);
      expect(
        (await api.post('/v1/auth/password/update', { reset_token: resetToken, new_password: 'an attacker password' })).status,
        'the earlier reset token',
      ).to.equal(401);
      // The password is as it was; a new sign-in works, and this session can sign the new one out in turn.
      const next = (await api.post('/v1/auth/signin', { email: m.email, password: m.password })).body.data.session.token;
      expect((await api.post('/v1/auth/custom/signout-others', undefined, { token: next })).body.data).to.deep.equal({ revoked_sessions: 1 });
      expect((await api.get('/v1/auth/custom/session', { token: m.token })).status).to.equal(401);
      expect((await api.get('/v1/auth/custom/session', { token: next })).status).to.equal(200);
    });

    it('does not let a session another change has just revoked keep itself', async () => {
      const m = await givenMerchant(api);
      const other = (await api.post('/v1/auth/signin', { email: m.email, password: m.password })).body.data.session.token;
      let changed: number | null = null;
      // The sign-out has authenticated `other`; before it reads the account, a password change from m.token revokes `other`.
      const res = await withFault(
        app.platform,
        'merchants',
        'updateOne',
        async (real, args) => {
          if (changed === null) {
            changed = -1;
            changed = (await api.post('/v1/auth/password/update', { current_password: m.password, new_password: 'changed password 321' }, { token: m.token }))
              .status;
          }
          return real(...args);
        },
        () => api.post('/v1/auth/custom/signout-others', undefined, { token: other }),
      );
      expect(changed).to.equal(200);
      expect(res.status).to.equal(401);
      expect((await api.get('/v1/auth/custom/session', { token: m.token })).status).to.equal(200);
      expect((await api.get('/v1/auth/custom/session', { token: other })).status).to.equal(401);
    });

    it('needs a live session', async () => {
      expect((await api.post('/v1/auth/custom/signout-others')).status).to.equal(401);
      expect((await api.post('/v1/auth/custom/signout-others', undefined, { token: 'emp_session_notalivesession' })).status).to.equal(401);
    });
  });
});
