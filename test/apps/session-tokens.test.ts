import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { SignJWT, createRemoteJWKSet, decodeProtectedHeader, generateKeyPair, jwtVerify } from 'jose';
import { ObjectId } from 'mongodb';
import {
  FIRST_KID,
  RETIRED_KEY_GRACE_SECONDS,
  currentSigningKey,
  publishedSigningKeys,
  rotateSigningKey,
  verificationKey,
} from '../../src/apps/session-tokens/signing-keys.js';
import { MANIFEST_SCHEMA_VERSION, type AppManifest } from '../../src/apps/manifest/types.js';
import {
  CLOCK_TOLERANCE_SECONDS,
  INSTALL_LINK_TTL_SECONDS,
  SESSION_TOKEN_TYPE_URN,
  issueSessionToken,
  signInstallLink,
  verifyInstallLink,
  verifySessionToken,
} from '../../src/apps/session-tokens/service.js';
import { apps, type AppDocument, type HashedSecret } from '../../src/apps/partners/models.js';
import { installations, type InstallationDocument } from '../../src/apps/installations/models.js';
import { signingKeys } from '../../src/apps/session-tokens/models.js';
import { openPlatform, type OpenPlatform } from '../../src/boot.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createLog } from '../../src/log.js';
import type { Platform } from '../../src/platform.js';
import { decryptSecret } from '../../src/secrets/index.js';
import { testEnv, useTestApp, type TestApp } from '../helpers/app.js';
import { findPlaintext } from '../helpers/database.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';

const JWKS_PATH = '/.well-known/jwks.json';
const sessionTokenPath = (installationId: string) => `/v1/app-store/installations/${installationId}/session-token`;

/** The platform with its clock moved by `seconds` (keys are cached per database handle, so it shares the platform's). */
const movedBy = (platform: Platform, seconds: number): Platform => {
  const clock: Clock = { now: () => new Date(Date.now() + seconds * 1000) };
  return { ...platform, clock };
};

/**
 * An app published and installed in the shop's store, written straight into the database.
 * TODO(install flow): once `POST /v1/app-store/apps/:id/oauth/authorize` exists, install through
 * it (submit, approve, authorize) instead of inserting these documents.
 */
async function givenInstalledApp(platform: Platform, shop: GivenMerchantWithStore, status: InstallationDocument['status'] = 'active') {
  const now = new Date();
  const hashed = (): HashedSecret => ({ algorithm: 'sha256', hash: randomBytes(32).toString('hex'), prefix: 'emp_', created_at: now });
  const handle = `app-${randomBytes(4).toString('hex')}`;
  const manifest: AppManifest = {
    schema_version: MANIFEST_SCHEMA_VERSION,
    name: 'Test App',
    handle,
    version: '1.0.0',
    description: 'An app for session token tests',
    app_url: 'https://app.example.com/',
    redirect_urls: ['https://app.example.com/callback'],
    scopes: ['read_products'],
    webhooks: { topics: [] },
    privacy_policy_url: 'https://app.example.com/privacy',
    support_url: null,
    embedded: { enabled: true, admin_path: '/' },
    bridge: { capabilities: [] },
    extensions: [],
  };
  const versionId = new ObjectId();
  const app: AppDocument = {
    _id: new ObjectId(),
    developer_id: new ObjectId(),
    merchant_id: new ObjectId(),
    handle,
    name: manifest.name,
    status: 'published',
    client_id: `emp_ci_${randomBytes(16).toString('base64url')}`,
    client_secret: hashed(),
    api_key: hashed(),
    published_version_id: versionId,
    published: manifest,
    published_at: now,
    latest_version_id: versionId,
    version_count: 1,
    created_at: now,
    updated_at: now,
  };
  await apps(platform.db).insertOne(app);
  const installation: InstallationDocument = {
    _id: new ObjectId(),
    app_id: app._id,
    store_id: new ObjectId(shop.store.id),
    status,
    grant_id: new ObjectId(),
    scopes: ['read_products'],
    webhook_url: 'https://app.example.com/webhooks',
    installed_by: new ObjectId(shop.merchant.id),
    metadata: {},
    metadata_version: 0,
    version: 1,
    installed_at: now,
    uninstalled_at: status === 'uninstalled' ? now : null,
    created_at: now,
    updated_at: now,
  };
  await installations(platform.db).insertOne(installation);
  return { app, installation };
}

/** The private `d` of every signing key, decrypted as the platform does. */
async function privateKeyScalars(platform: Platform): Promise<string[]> {
  const docs = await signingKeys(platform.db).find({}).toArray();
  return docs.map((doc) => (JSON.parse(decryptSecret(platform.config.secretsKeys, 'apps.signing_key', doc.private_jwk_encrypted)) as { d: string }).d);
}

/** A second platform process on the same database (its own connection and key cache). */
async function openSecondPlatform(app: TestApp, dbName = app.config.mongo.dbName): Promise<OpenPlatform> {
  const config = loadConfig(testEnv(dbName));
  return openPlatform(config, 'web', { log: createLog('silent', { process: 'web-2' }) });
}

/** A token with one character of its signature changed (in the middle, so the decoded bytes differ). */
function tamperSignature(token: string): string {
  const [h, p, s] = token.split('.') as [string, string, string];
  const i = Math.floor(s.length / 2);
  return `${h}.${p}.${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`;
}

describe('App session tokens, install links and the platform signing keys', () => {
  const { app, api } = useTestApp('app_session_tokens');
  let platform: Platform;
  let issuer: string;
  before(async () => {
    platform = app.platform;
    issuer = app.url;
  });

  describe('GET /.well-known/jwks.json', () => {
    it('publishes the public signing keys as a JWK Set, cacheable for five minutes', async () => {
      const res = await api.get(JWKS_PATH);
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('public, max-age=300');
      expect(res.body).to.have.all.keys('keys');
      expect(res.body.keys).to.have.length.of.at.least(1);
      for (const key of res.body.keys) {
        expect(key).to.have.all.keys('kty', 'crv', 'x', 'y', 'kid', 'alg', 'use');
        expect(key).to.deep.include({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
        expect(key.x).to.match(/^[A-Za-z0-9_-]{43}$/);
        expect(key.y).to.match(/^[A-Za-z0-9_-]{43}$/);
      }
    });

    it('takes no query parameters', async () => {
      expect((await api.get(`${JWKS_PATH}?x=1`)).status).to.equal(400);
    });
  });

  describe('POST /v1/app-store/installations/:id/session-token', () => {
    it('issues a session token for the merchant in the installed app that an app verifies with the JWKS alone', async () => {
      const shop = await givenMerchantWithStore(api);
      const { app: installed, installation } = await givenInstalledApp(platform, shop);
      const asked = Math.floor(Date.now() / 1000);
      const res = await api.post(sessionTokenPath(installation._id.toHexString()), undefined, shop.as);
      const answered = Math.floor(Date.now() / 1000);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(res.body.data).to.have.all.keys('session_token', 'expires_in', 'token_type');
      expect(res.body.data).to.deep.include({ expires_in: 60, token_type: SESSION_TOKEN_TYPE_URN });

      // As the app's backend would: a generic JOSE library with nothing but the JWKS URL.
      const jwks = createRemoteJWKSet(new URL(`${app.url}${JWKS_PATH}`));
      const { payload, protectedHeader } = await jwtVerify(res.body.data.session_token, jwks, { issuer, audience: installed.client_id, algorithms: ['ES256'] });
      const session = await api.get('/v1/auth/custom/session', { token: shop.merchant.token });
      expect(protectedHeader).to.deep.include({ alg: 'ES256', typ: 'emp-session+jwt' });
      expect(protectedHeader.kid).to.be.a('string');
      expect(payload).to.have.all.keys('iss', 'aud', 'sub', 'store_id', 'sid', 'installation_id', 'jti', 'iat', 'nbf', 'exp');
      expect(payload).to.deep.include({
        iss: issuer,
        aud: installed.client_id,
        sub: shop.merchant.id,
        store_id: shop.store.id,
        sid: session.body.data.session.id,
        installation_id: installation._id.toHexString(),
      });
      expect(payload.exp! - payload.iat!).to.equal(60);
      expect(payload.nbf).to.equal(payload.iat);
      expect(payload.iat).to.be.within(asked, answered);

      // And the platform's own verifier agrees.
      const verified = await verifySessionToken(platform, { token: res.body.data.session_token, issuer, audience: installed.client_id });
      expect(verified).to.deep.equal({ ok: true, claims: payload });
    });

    it('names the address the request came to as the issuer, never the Origin header the client sent', async () => {
      const shop = await givenMerchantWithStore(api);
      const { installation } = await givenInstalledApp(platform, shop);
      const res = await api.post(sessionTokenPath(installation._id.toHexString()), undefined, { ...shop.as, headers: { origin: 'https://evil.example.com' } });
      expect(res.status).to.equal(200);
      expect(JSON.parse(Buffer.from(res.body.data.session_token.split('.')[1], 'base64url').toString()).iss).to.equal(issuer);
    });

    it('gives every token its own jti', async () => {
      const shop = await givenMerchantWithStore(api);
      const { installation } = await givenInstalledApp(platform, shop);
      const [a, b] = await Promise.all([1, 2].map(() => api.post(sessionTokenPath(installation._id.toHexString()), undefined, shop.as)));
      const jti = (r: typeof a) => JSON.parse(Buffer.from(r!.body.data.session_token.split('.')[1], 'base64url').toString()).jti;
      expect(jti(a)).to.be.a('string').and.not.equal(jti(b));
    });

    it('answers 401 without a merchant session', async () => {
      const shop = await givenMerchantWithStore(api);
      const { installation } = await givenInstalledApp(platform, shop);
      const res = await api.post(sessionTokenPath(installation._id.toHexString()), undefined, { storeId: shop.store.id });
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('unauthenticated');
    });

    it('answers 403 for a store the merchant does not own', async () => {
      const owner = await givenMerchantWithStore(api);
      const other = await givenMerchantWithStore(api);
      const { installation } = await givenInstalledApp(platform, owner);
      const res = await api.post(sessionTokenPath(installation._id.toHexString()), undefined, { token: other.merchant.token, storeId: owner.store.id });
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('store_forbidden');
    });

    it('answers 404 for an installation in another store, an uninstalled one, or an id that is none', async () => {
      const shop = await givenMerchantWithStore(api);
      const other = await givenMerchantWithStore(api);
      const { installation: elsewhere } = await givenInstalledApp(platform, other);
      const { installation: uninstalled } = await givenInstalledApp(platform, shop, 'uninstalled');
      for (const id of [elsewhere._id.toHexString(), uninstalled._id.toHexString(), new ObjectId().toHexString(), 'not-an-id']) {
        const res = await api.post(sessionTokenPath(id), undefined, shop.as);
        expect(res.status, id).to.equal(404);
        expect(res.body.error.code).to.equal('not_found');
      }
    });

    it('takes no body', async () => {
      const shop = await givenMerchantWithStore(api);
      const { installation } = await givenInstalledApp(platform, shop);
      const res = await api.post(sessionTokenPath(installation._id.toHexString()), { audience: 'someone-else' }, shop.as);
      expect(res.status).to.equal(400);
    });
  });

  describe('verifySessionToken', () => {
    let shop: GivenMerchantWithStore;
    let installed: AppDocument;
    let installation: InstallationDocument;
    let token: string;
    before(async () => {
      shop = await givenMerchantWithStore(api);
      ({ app: installed, installation } = await givenInstalledApp(platform, shop));
      ({ token } = await issueSessionToken(platform, {
        issuer,
        installation,
        app: installed,
        merchant: { merchantId: shop.merchant.id, sessionId: new ObjectId().toHexString() },
      }));
    });
    const verify = (t: string, options: { audience?: string; issuer?: string; on?: Platform } = {}) =>
      verifySessionToken(options.on ?? platform, { token: t, issuer: options.issuer ?? issuer, audience: options.audience ?? installed.client_id });

    it(`accepts a token up to ${CLOCK_TOLERANCE_SECONDS} seconds past its expiry, and refuses it as expired after that`, async () => {
      expect((await verify(token, { on: movedBy(platform, 60 + CLOCK_TOLERANCE_SECONDS - 2) })).ok).to.equal(true);
      expect(await verify(token, { on: movedBy(platform, 60 + CLOCK_TOLERANCE_SECONDS + 2) })).to.deep.equal({ ok: false, reason: 'expired' });
    });

    it('refuses an expired token read by an app with the JWKS too', async () => {
      const jwks = createRemoteJWKSet(new URL(`${app.url}${JWKS_PATH}`));
      const later = new Date(Date.now() + 120_000);
      let failure: unknown = null;
      await jwtVerify(token, jwks, { issuer, audience: installed.client_id, currentDate: later }).catch((err: unknown) => (failure = err));
      expect((failure as { code?: string } | null)?.code).to.equal('ERR_JWT_EXPIRED');
    });

    it('refuses a token not valid yet (issued by a clock ahead of the verifier)', async () => {
      expect(await verify(token, { on: movedBy(platform, -(CLOCK_TOLERANCE_SECONDS + 2)) })).to.deep.equal({ ok: false, reason: 'not_yet_valid' });
    });

    it('refuses a token for another app (audience)', async () => {
      expect(await verify(token, { audience: 'emp_ci_someone_else' })).to.deep.equal({ ok: false, reason: 'wrong_audience' });
    });

    it('refuses a token of another issuer', async () => {
      expect(await verify(token, { issuer: 'https://elsewhere.example.com' })).to.deep.equal({ ok: false, reason: 'wrong_issuer' });
    });

    it('refuses a token whose signature was tampered with', async () => {
      expect(await verify(tamperSignature(token))).to.deep.equal({ ok: false, reason: 'invalid_signature' });
    });

    it('refuses a token whose claims were changed (another store)', async () => {
      const [h, p, s] = token.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
      const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, store_id: new ObjectId().toHexString() })).toString('base64url')}.${s}`;
      expect(await verify(forged)).to.deep.equal({ ok: false, reason: 'invalid_signature' });
    });

    it('refuses a token signed by another key, under our kid or another', async () => {
      const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
      const { kid } = decodeProtectedHeader(token);
      const { privateKey } = await generateKeyPair('ES256');
      const underOurKid = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'emp-session+jwt', kid: kid! }).sign(privateKey);
      expect(await verify(underOurKid)).to.deep.equal({ ok: false, reason: 'invalid_signature' });
      const underItsOwn = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'emp-session+jwt', kid: 'sk_attacker' }).sign(privateKey);
      expect(await verify(underItsOwn)).to.deep.equal({ ok: false, reason: 'unknown_key' });
    });

    it('refuses another algorithm (HS256 keyed with the public key, none) and a missing kid', async () => {
      const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
      const { kid } = decodeProtectedHeader(token);
      const jwk = (await publishedSigningKeys(platform)).find((k) => k.kid === kid)!;
      const hs = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'emp-session+jwt', kid: kid! }).sign(Buffer.from(JSON.stringify(jwk)));
      expect(await verify(hs)).to.deep.equal({ ok: false, reason: 'unsupported_algorithm' });
      const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      expect(await verify(`${b64({ alg: 'none', typ: 'emp-session+jwt', kid })}.${b64(claims)}.`)).to.deep.equal({
        ok: false,
        reason: 'unsupported_algorithm',
      });
      const { privateKey } = await generateKeyPair('ES256');
      const kidless = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'emp-session+jwt' }).sign(privateKey);
      expect(await verify(kidless)).to.deep.equal({ ok: false, reason: 'malformed' });
    });

    it('refuses what is not a JWT', async () => {
      for (const t of ['', 'abc', 'a.b.c', `${token}.x`, token.split('.').slice(0, 2).join('.')]) {
        expect(await verify(t), t).to.deep.equal({ ok: false, reason: 'malformed' });
      }
    });

    it('refuses an install link shown as a session token, and a session token shown as an install link', async () => {
      const link = await signInstallLink(platform, { issuer, app: installed, store: shop.store, nonce: 'n-1' });
      expect(await verify(link.token)).to.deep.equal({ ok: false, reason: 'wrong_type' });
      expect(await verifyInstallLink(platform, { token, issuer, audience: installed.client_id })).to.deep.equal({ ok: false, reason: 'wrong_type' });
    });
  });

  describe('install links', () => {
    it('carry the store and the nonce to the app for five minutes', async () => {
      const shop = await givenMerchantWithStore(api);
      const { app: installed } = await givenInstalledApp(platform, shop);
      const link = await signInstallLink(platform, { issuer, app: installed, store: shop.store, nonce: 'nonce-123' });
      expect(link.expiresIn).to.equal(INSTALL_LINK_TTL_SECONDS);
      const verified = await verifyInstallLink(platform, { token: link.token, issuer, audience: installed.client_id });
      expect(verified.ok).to.equal(true);
      expect(verified.ok && verified.claims).to.deep.include({
        aud: installed.client_id,
        store_id: shop.store.id,
        store_subdomain: shop.store.subdomain,
        nonce: 'nonce-123',
      });
      expect(verified.ok && verified.claims.exp - verified.claims.iat).to.equal(300);
      // The app verifies it with the JWKS alone.
      const { protectedHeader } = await jwtVerify(link.token, createRemoteJWKSet(new URL(`${app.url}${JWKS_PATH}`)), { issuer, audience: installed.client_id });
      expect(protectedHeader.typ).to.equal('emp-install+jwt');
      expect(
        await verifyInstallLink(movedBy(platform, 300 + CLOCK_TOLERANCE_SECONDS + 2), { token: link.token, issuer, audience: installed.client_id }),
      ).to.deep.equal({ ok: false, reason: 'expired' });
      expect(await verifyInstallLink(platform, { token: link.token, issuer, audience: 'emp_ci_other' })).to.deep.equal({ ok: false, reason: 'wrong_audience' });
    });
  });

  describe('signing keys', () => {
    it('keeps the private key encrypted: its d is nowhere in the database or the logs', async () => {
      await currentSigningKey(platform);
      const scalars = await privateKeyScalars(platform);
      expect(scalars).to.have.length.of.at.least(1);
      for (const d of scalars) {
        expect(d).to.match(/^[A-Za-z0-9_-]{43}$/);
        expect(await findPlaintext(platform.db, d)).to.deep.equal([]);
        expect(app.logLines.join('\n')).not.to.include(d);
      }
    });

    it('two processes on one database sign with the same key', async () => {
      const second = await openSecondPlatform(app);
      try {
        const shop = await givenMerchantWithStore(api);
        const { app: installed, installation } = await givenInstalledApp(platform, shop);
        const theirs = await currentSigningKey(second.platform);
        expect(theirs.kid).to.equal((await currentSigningKey(platform)).kid);
        // A token the second process signs verifies in the first, and the reverse.
        const input = { issuer, installation, app: installed, merchant: { merchantId: shop.merchant.id, sessionId: new ObjectId().toHexString() } };
        const fromSecond = await issueSessionToken(second.platform, input);
        expect((await verifySessionToken(platform, { token: fromSecond.token, issuer, audience: installed.client_id })).ok).to.equal(true);
        const fromFirst = await issueSessionToken(platform, input);
        expect((await verifySessionToken(second.platform, { token: fromFirst.token, issuer, audience: installed.client_id })).ok).to.equal(true);
      } finally {
        await second.close();
      }
    });

    it('processes starting at once on an empty database agree on one first key', async () => {
      const raceDb = `${app.config.mongo.dbName}_race`;
      const second = await openSecondPlatform(app, raceDb);
      try {
        for (let round = 0; round < 3; round++) {
          await signingKeys(second.platform.db).deleteMany({});
          // Each handle is a process of its own as far as keys go (the cache is per database handle).
          const processes: Platform[] = Array.from({ length: 6 }, () => ({ ...second.platform, db: second.client.db(raceDb) }));
          const kids = await Promise.all(processes.map(async (p) => (await currentSigningKey(p)).kid));
          const docs = await signingKeys(second.platform.db).find({}).toArray();
          expect(docs.map((d) => d._id)).to.have.length(1);
          expect(new Set(kids)).to.deep.equal(new Set([docs[0]!._id]));
          expect(docs[0]!._id).to.equal(FIRST_KID);
          // And every process holds the key that was stored (not one it made and lost the race with).
          const jwk = docs[0]!.public_jwk;
          for (const p of processes) expect((await publishedSigningKeys(p)).map((k) => k.x)).to.deep.equal([jwk.x]);
        }
      } finally {
        await second.platform.db.dropDatabase().catch(() => {});
        await second.close();
      }
    });

    it('rotation: new tokens use the new key, old tokens keep verifying for the grace period, the JWKS lists both', async () => {
      const second = await openSecondPlatform(app);
      try {
        const shop = await givenMerchantWithStore(api);
        const { app: installed, installation } = await givenInstalledApp(platform, shop);
        const input = { issuer, installation, app: installed, merchant: { merchantId: shop.merchant.id, sessionId: new ObjectId().toHexString() } };
        const before = await issueSessionToken(platform, input);
        const oldKid = decodeProtectedHeader(before.token).kid!;
        expect((await currentSigningKey(second.platform)).kid).to.equal(oldKid); // the second process has read the keys before the rotation

        const rotated = await rotateSigningKey(platform);
        expect(rotated.kid).to.not.equal(oldKid);
        expect(rotated.retired).to.include(oldKid);
        const after = await issueSessionToken(platform, input);
        expect(decodeProtectedHeader(after.token).kid).to.equal(rotated.kid);
        // The second process signs with the key it read (still valid) until it reads the keys again, within a minute.
        expect((await currentSigningKey(second.platform)).kid).to.equal(oldKid);
        expect((await currentSigningKey(movedBy(second.platform, 61))).kid).to.equal(rotated.kid);

        const jwks = await api.get(JWKS_PATH);
        expect(jwks.body.keys.map((k: { kid: string }) => k.kid)).to.include.members([oldKid, rotated.kid]);
        // An app with a fresh key set verifies both; the second process learns the new kid on first sight.
        const remote = createRemoteJWKSet(new URL(`${app.url}${JWKS_PATH}`));
        for (const t of [before.token, after.token]) {
          await jwtVerify(t, remote, { issuer, audience: installed.client_id });
          expect((await verifySessionToken(second.platform, { token: t, issuer, audience: installed.client_id })).ok).to.equal(true);
        }
        const third = await openSecondPlatform(app);
        try {
          // A process that reads the keys knowing nothing: the new key signs, both verify.
          expect((await currentSigningKey(third.platform)).kid).to.equal(rotated.kid);
          expect((await verifySessionToken(third.platform, { token: before.token, issuer, audience: installed.client_id })).ok).to.equal(true);
        } finally {
          await third.close();
        }

        // Past the grace period the old key neither verifies nor is published.
        const dayLater = movedBy(platform, RETIRED_KEY_GRACE_SECONDS + 1);
        expect(await verificationKey(dayLater, oldKid)).to.equal(null);
        expect((await publishedSigningKeys(dayLater)).map((k) => k.kid)).to.deep.equal([rotated.kid]);
        // The new key's private key is as sealed as the first's.
        for (const d of await privateKeyScalars(platform)) expect(await findPlaintext(platform.db, d)).to.deep.equal([]);
      } finally {
        await second.close();
      }
    });
  });
});
