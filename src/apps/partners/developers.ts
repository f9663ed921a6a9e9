import { ObjectId } from 'mongodb';
import { isDuplicateKeyError } from '../../db.js';
import { PlatformError, invalidInput, type InputIssue } from '../../errors.js';
import type { Platform } from '../../platform.js';
import { urlProblem } from '../manifest/validate.js';
import { presentDeveloper, type DeveloperView } from './present.js';
import type { RegisterDeveloperBody } from './schemas.js';
import { developers, type DeveloperDocument } from './models.js';

/** Partners (docs/apps.md, Partners): one developer profile per merchant account. */

const profileMissing = () =>
  new PlatformError('not_allowed', 'developer_profile_required', 'Register a developer profile first (POST /v1/app-store/developers/register)');

/** The caller's profile, or 403 `developer_profile_required` (every partner route but register). */
export async function requireDeveloper(platform: Platform, merchantId: string): Promise<DeveloperDocument> {
  const developer = await developers(platform.db).findOne({ merchant_id: new ObjectId(merchantId) });
  if (!developer) throw profileMissing();
  return developer;
}

export async function getDeveloperProfile(platform: Platform, merchantId: string): Promise<DeveloperView> {
  const developer = await developers(platform.db).findOne({ merchant_id: new ObjectId(merchantId) });
  if (!developer)
    throw new PlatformError('not_found', 'developer_profile_not_found', 'This account has no developer profile yet (POST /v1/app-store/developers/register)');
  return presentDeveloper(developer);
}

/** Create the caller's profile, or replace it: `created` says which (201 or 200). */
export async function registerDeveloper(
  platform: Platform,
  merchantId: string,
  input: RegisterDeveloperBody,
): Promise<{ created: boolean; developer: DeveloperView }> {
  const issues: InputIssue[] = [];
  const url = (path: 'website_url' | 'support_url' | 'privacy_policy_url', value: string | null) => {
    if (value === null) return null;
    const verdict = urlProblem(platform.config, value, 'page');
    if (!verdict.ok) issues.push({ path, message: verdict.reason });
    return verdict.ok ? verdict.href : value;
  };
  const fields = {
    name: input.name,
    contact_email: input.contact_email.toLowerCase(),
    website_url: url('website_url', input.website_url),
    support_url: url('support_url', input.support_url)!,
    privacy_policy_url: url('privacy_policy_url', input.privacy_policy_url)!,
  };
  if (issues.length > 0) throw invalidInput(issues);
  const now = platform.clock.now();
  const id = new ObjectId();
  const upsert = () =>
    developers(platform.db).findOneAndUpdate(
      { merchant_id: new ObjectId(merchantId) },
      { $set: { ...fields, updated_at: now }, $setOnInsert: { _id: id, merchant_id: new ObjectId(merchantId), created_at: now } },
      { upsert: true, returnDocument: 'after' },
    );
  // One upsert on the unique merchant_id; of two first registrations at once, the loser's insert
  // is refused by the index and its retry updates the winner's profile.
  let doc: DeveloperDocument | null;
  try {
    doc = await upsert();
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    doc = await upsert();
  }
  return { created: doc!._id.equals(id), developer: presentDeveloper(doc!) };
}
