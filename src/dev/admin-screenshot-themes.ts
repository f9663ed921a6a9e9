import type { Page } from 'playwright-core';
import type { apiClient, Json } from './api-client.js';
import { shootAtWidths } from './screenshot-widths.js';
import { themeFixture } from './theme-fixtures.js';

/**
 * The admin's Online store and theme editor screenshots (docs/admin.md, Screenshots), a part of
 * `npm run screenshot:admin` (src/dev/admin-screenshot.ts), which signs the merchant in and gives
 * its store, its API client and its browser page here.
 */
export type ThemeShots = {
  call: ReturnType<typeof apiClient>;
  auth: Record<string, string>;
  as: Record<string, string>;
  store: Json;
  tag: string;
  password: string;
  page: Page;
  /** Open an admin path and shoot it at each width as docs/screenshots/admin-<name>.png. */
  shot: (name: string, path: string) => Promise<void>;
};

const BASE = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const OUT = new URL('../../../docs/screenshots/', import.meta.url).pathname;

export async function shootThemes({ call, auth, as, store, tag, password, page, shot }: ThemeShots): Promise<void> {
  // Online store (docs/admin.md, Themes): a new store's library (its shop closed), then the theme store (with SCREENSHOT_OPERATOR,
  // one of the platform's OPERATOR_EMAILS, two themes published through review: Harbor free, Ember paid; without, a private one),
  // a theme's page, the library with the live theme and a second copy, Publish's confirm step, releases, and an upload's problems.
  const fixture = (name: string) => themeFixture(name) as Json;
  const themed = (await call('POST', '/v1/stores', { name: 'Harbour Goods', subdomain: `harbour-themes-${tag}`, currency: 'USD' }, auth)).data.id as string;
  await shot('themes-closed', `/admin/stores/${themed}/themes`);
  const operator = process.env.SCREENSHOT_OPERATOR;
  const harbor = fixture('aurora');
  Object.assign(harbor.package, { slug: `harbor-${tag}`, name: 'Harbor', author_name: 'Northwind Themes' });
  const ember = fixture('ember-liquid');
  Object.assign(ember.package, { slug: `ember-${tag}`, name: 'Ember', author_name: 'Northwind Themes', pricing_type: 'paid', price: 49, currency: 'USD' });
  if (operator) {
    await call('POST', '/v1/auth/signup', { email: operator, password, name: 'Operator' }).catch(() => undefined);
    const asOperator = { authorization: `Bearer ${(await call('POST', '/v1/auth/signin', { email: operator, password })).data.session.token}` };
    for (const bundle of [harbor, ember]) {
      const review = (await call('POST', '/v1/themes/packages/upload', { bundle }, auth)).data.review_record.id as string;
      for (let i = 0; i < 60 && (await call('GET', `/v1/operations/theme-reviews/${review}`, undefined, asOperator)).data.status === 'pending_checks'; i++)
        await new Promise((resolve) => setTimeout(resolve, 500));
      await call('POST', `/v1/operations/theme-reviews/${review}/approve`, undefined, asOperator);
    }
  } else await call('POST', '/v1/themes/packages/upload', { bundle: harbor, submission_mode: 'private_install' }, auth);
  await shot('themes-store', `/admin/stores/${themed}/themes/store`);
  // A theme's page previews the theme with the store's own products (docs/admin.md, A theme store theme's preview).
  for (const [title, price] of [
    ['Harbour lantern', 4800],
    ['Rope basket', 2600],
    ['Tide mug', 1800],
  ] as const)
    await call('POST', '/v1/products', { title, status: 'active', variants: [{ price }] }, { ...auth, 'x-store-id': themed });
  await shot('themes-theme', `/admin/stores/${themed}/themes/store/${operator ? ember.package.slug : harbor.package.slug}`);
  const inThemed = { ...auth, 'x-store-id': themed };
  const live = (await call('POST', `/v1/themes/${harbor.package.slug}/install`, { store_id: themed }, auth)).data.id as string;
  const second = (await call('POST', `/v1/themes/${harbor.package.slug}/install`, { store_id: themed }, auth)).data.id as string;
  const home = (await call('GET', `/v1/themes/${harbor.package.slug}/editor?theme_id=${live}`, undefined, inThemed)).data.templates.home;
  await call(
    'PUT',
    `/v1/themes/${harbor.package.slug}/editor/draft?theme_id=${live}`,
    { template_key: 'home', version: home.version, content: home.live },
    inThemed,
  );
  await call('POST', `/v1/themes/${harbor.package.slug}/editor/publish?theme_id=${live}`, {}, inThemed);
  await shot('themes', `/admin/stores/${themed}/themes`);
  await shot('themes-publish', `/admin/stores/${themed}/themes/${second}/publish`);
  await shot('themes-releases', `/admin/stores/${themed}/themes/${live}/releases`);
  await page.goto(`${BASE}/admin/stores/${themed}/themes/upload`);
  Object.assign(harbor.package, { slug: 'Not A Slug', price: -1 });
  delete harbor.templates.home;
  await page.getByLabel('Theme bundle').setInputFiles({ name: 'theme.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(harbor)) });
  await page.getByRole('button', { name: 'Upload theme' }).click();
  await page.getByText('The bundle was not uploaded').waitFor();
  await shootAtWidths(page, `${OUT}admin-themes-upload-errors`);
  // The theme editor: a copy of aurora (every setting type), live, with a draft of its home page; its preview, the theme settings, a refused colour.
  const aurora = themeFixture('aurora') as Json;
  aurora.package.slug = `aurora-editor-${tag}`;
  await call('POST', '/v1/themes/packages/upload', { bundle: aurora, submission_mode: 'private_install' }, auth);
  const theme = (await call('POST', `/v1/themes/${aurora.package.slug}/install`, { store_id: store.id, publish: true }, auth)).data.id as string;
  const draft = structuredClone(aurora.templates.home);
  draft.sections.hero.blocks.heading.settings.heading = 'Harbour light, all winter';
  await call('PUT', `/v1/themes/${aurora.package.slug}/editor/draft?theme_id=${theme}`, { template_key: 'home', version: 0, content: draft }, as);
  const themeEditor = `/admin/stores/${store.id}/themes/${theme}/editor`;
  await shot('theme-editor', `${themeEditor}?template=home&section=hero&block=heading`);
  await shot('theme-editor-settings', `${themeEditor}?template=home&section=%40theme`);
  await page.getByLabel('Accent').fill('orange');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForSelector('#f-s-color_accent-error');
  await shootAtWidths(page, `${OUT}admin-theme-editor-error`);
}
