import { ObjectId, type Db } from 'mongodb';
import type { AppManifest } from '../../src/apps/index.js';
import { normaliseScopes } from '../../src/apps/index.js';
import { generateToken } from '../../src/secrets/index.js';

export type PublishedApp = {
  app: { id: string };
  manifest: AppManifest;
  credentials: { oauth_client_id: string; client_secret: string; api_key: string };
};

let seq = 0;

/**
 * TEMPORARY fixture until the partner API lands: a published app written straight into the
 * database with the document shape of src/apps/store.ts.
 */
export async function givenPublishedApp(db: Db, over: Partial<AppManifest> = {}, options: { publish?: boolean } = {}): Promise<PublishedApp> {
  const n = `${Date.now().toString(36)}${++seq}`;
  const manifest: AppManifest = {
    schema_version: '2026-06-05.ws13',
    name: `Partner app ${n}`,
    handle: `partner-app-${n}`,
    version: '1.0.0',
    description: '',
    app_url: 'https://partner.example.com/app',
    redirect_urls: ['https://partner.example.com/auth/callback'],
    scopes: ['read_products'],
    webhooks: { topics: [] },
    privacy_policy_url: 'https://partner.example.com/privacy',
    support_url: null,
    embedded: { enabled: true, admin_path: '/' },
    bridge: { capabilities: ['api.fetch', 'resize', 'toast'] },
    extensions: [],
    ...over,
  };
  manifest.scopes = normaliseScopes(manifest.scopes);
  const now = new Date();
  const clientId = `emp_ci_${n}${new ObjectId().toHexString()}`;
  const secret = generateToken('emp_cs');
  const apiKey = generateToken('emp_ak');
  const id = new ObjectId();
  const publish = options.publish ?? true;
  await db.collection('apps').insertOne({
    _id: id,
    developer_id: new ObjectId(),
    merchant_id: new ObjectId(),
    handle: manifest.handle,
    name: manifest.name,
    status: publish ? 'published' : 'submitted',
    client_id: clientId,
    client_secret: { algorithm: 'sha256', hash: secret.hash, prefix: secret.token.slice(0, 12), created_at: now },
    api_key: { algorithm: 'sha256', hash: apiKey.hash, prefix: apiKey.token.slice(0, 12), created_at: now },
    published_version_id: publish ? new ObjectId() : null,
    published: publish ? manifest : null,
    published_at: publish ? now : null,
    latest_version_id: new ObjectId(),
    version_count: 1,
    created_at: now,
    updated_at: now,
  });
  return { app: { id: id.toHexString() }, manifest, credentials: { oauth_client_id: clientId, client_secret: secret.token, api_key: apiKey.token } };
}
