import type { apiClient, Json } from './api-client.js';

/** The PKCE challenge the screenshots' installs send (no code is ever exchanged). */
export const CODE_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

type Call = ReturnType<typeof apiClient>;
/** The developer a screenshot's app is published by: its name, its site, and its mail address. */
export type ScreenshotDeveloper = { name: string; site: string; email: string };

/**
 * An app published for a screenshot (docs/console.md, Screenshots): the operator registers as its
 * developer (once: an operator who registered before is kept), submits the manifest and approves
 * it. The manifest's app and redirect URLs are under `https://<handle>.example.com`. Answers the
 * submission (the app, its version, its credentials).
 */
export async function publishApp(
  call: Call,
  auth: Record<string, string>,
  developer: ScreenshotDeveloper,
  manifest: { name: string; handle: string; scopes: string[] } & Json,
): Promise<Json> {
  const { name, site, email } = developer;
  const profile = { name, contact_email: email, website_url: site, support_url: `${site}/support`, privacy_policy_url: `${site}/privacy` };
  await call('POST', '/v1/app-store/developers/register', profile, auth).catch(() => undefined);
  const app = `https://${manifest.handle}.example.com`;
  const submitted = (
    await call(
      'POST',
      '/v1/app-store/developers/apps',
      {
        manifest: {
          schema_version: '2026-06-05.ws13',
          version: '1.0.0',
          app_url: `${app}/app`,
          redirect_urls: [`${app}/oauth/callback`],
          privacy_policy_url: profile.privacy_policy_url,
          ...manifest,
        },
      },
      auth,
    )
  ).data;
  await call('POST', `/v1/operations/app-reviews/${submitted.app.latest_version.id}/approve`, undefined, auth);
  return submitted;
}

/** The app installed in the store with `scopes`, as its consent page's Install does it (webhooks to its own host). */
export async function installApp(call: Call, auth: Record<string, string>, install: { appId: string; handle: string; storeId: string; scopes: string[] }) {
  const app = `https://${install.handle}.example.com`;
  await call(
    'POST',
    `/v1/app-store/apps/${install.appId}/oauth/authorize`,
    {
      store_id: install.storeId,
      redirect_uri: `${app}/oauth/callback`,
      code_challenge: CODE_CHALLENGE,
      code_challenge_method: 'S256',
      scopes: install.scopes,
      state: 'screenshot',
      webhook_url: `${app}/webhooks`,
    },
    auth,
  );
}
