import { ObjectId } from 'mongodb';
import { notFound, PlatformError } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import { errorSummary } from '../../http/ui/forms.js';
import { pager } from '../../http/ui/pager.js';
import { badge, confirmStep, heading, table, when } from '../../http/ui/parts.js';
import { PageQuery } from '../../pagination.js';
import { getRelease, installedTheme, listReleases, rollbackRelease, type ReleaseView } from '../../themes/index.js';
import { storePage } from '../layout.js';
import { pagePosition, parseQuery, type StorePage } from '../request.js';
import { editorPath, installedPath, themesPath } from './paths.js';

/**
 * An installed theme's releases (docs/admin.md, Themes; docs/themes.md, Releases and rollback):
 * each publish of its drafts and each rollback, through `listReleases`, and Roll back to an earlier
 * one (a confirm step) through `rollbackRelease`, which makes it live again as a new release.
 */

export type ReleasePage = StorePage<{ storeId: string; themeId: string; number: string }>;

const KEY_LABELS: ReadonlyMap<string, string> = new Map([['settings_data', 'theme settings']]);
const keyLabel = (k: string) => KEY_LABELS.get(k) ?? k;

/** What a release was made from: the drafts published (each at its draft version), or the release it rolled back to. */
function madeFrom(r: ReleaseView): Markup {
  if (r.kind === 'rollback') return html`rolled back to ${r.rolled_back_to === 0 ? 'the theme as installed' : `release ${String(r.rolled_back_to)}`}`;
  return html`drafts of ${r.template_keys.map((k, i) => html`${i ? ', ' : ''}${keyLabel(k)} <span class="muted">(draft ${String(r.draft_versions[k] ?? '?')})</span>`)}`;
}

export async function releasesPage(s: StorePage<{ storeId: string; themeId: string }>, problem: string | null = null, status = 200): Promise<void> {
  const query = parseQuery(s, PageQuery);
  const e = await installedTheme(s.platform, s.store, s.params.themeId);
  const page = await listReleases(s.platform, e, query);
  const current = e.theme.release_number ?? 0;
  const name = e.bundle.package.name;
  const who = (id: string) => (id === s.viewer.merchant.merchantId ? 'you' : 'another account');
  const rollBack = (n: number) =>
    n === current
      ? badge('current', 'ok')
      : html`<a href="${installedPath(s, e.theme._id.toHexString(), `/releases/${String(n)}/rollback`)}">Roll back to this<span class="visually-hidden"> (release ${String(n)})</span></a>`;
  const installedRow = query.cursor ? [] : [['0', when(e.theme.created_at.toISOString()), 'you', html`installed at version ${e.theme.version}`, rollBack(0)]];
  const body = html`${heading(`${name}: releases`, 'Each publish of your drafts and each rollback, oldest first. Rolling back makes an earlier release live again as a new one; your drafts stay.')}
    <p class="actions"><a href="${themesPath(s)}">Your themes</a><a href="${editorPath(s, e.theme._id.toHexString())}">Customize ${name}</a></p>
    ${errorSummary(problem ? [problem] : [], 'Nothing was rolled back')}
    ${table({
      label: `Releases of ${name}`,
      headings: ['Release', 'When', 'By', 'From', ''],
      rows: [...installedRow, ...page.items.map((r) => [String(r.number), when(r.published_at), who(r.published_by), madeFrom(r), rollBack(r.number)])],
      empty: 'No releases.',
      stack: true,
    })}
    ${pager({ path: installedPath(s, e.theme._id.toHexString(), '/releases'), params: {}, nextCursor: page.nextCursor, ...pagePosition(s) })}`;
  s.render(storePage(s, 'themes', { title: `${name}: releases`, body }), status);
}

const RELEASE_NUMBER = /^\d{1,9}$/;

export async function confirmRollback(s: ReleasePage): Promise<void> {
  const e = await installedTheme(s.platform, s.store, s.params.themeId);
  const n = s.params.number;
  const live = s.store.live_theme_id === e.theme._id.toHexString();
  // The release must exist (0 is the theme as installed, always there); another theme's or none is the 404 page.
  if (!RELEASE_NUMBER.test(n)) throw notFound('Release');
  if (n !== '0') await getRelease(s.platform, e, n);
  const body = confirmStep({
    question: `Roll ${e.bundle.package.name} back to ${n === '0' ? 'the theme as installed' : `release ${n}`}?`,
    detail: `Its templates and settings become ${n === '0' ? 'those it was installed with' : `those of release ${n}`}, as a new release.${
      live ? ' It is your live theme: your shop changes at once.' : ''
    } Your drafts stay as they are.`,
    action: installedPath(s, s.params.themeId, `/releases/${n}/rollback`),
    csrf: s.viewer.csrf,
    button: 'Roll back',
    back: { href: installedPath(s, s.params.themeId, '/releases'), label: 'Cancel' },
  });
  s.render(storePage(s, 'themes', { title: 'Roll back', body }));
}

export async function rollbackAction(s: ReleasePage): Promise<void> {
  const e = await installedTheme(s.platform, s.store, s.params.themeId);
  let release;
  try {
    release = await rollbackRelease(s.platform, e, new ObjectId(s.viewer.merchant.merchantId), s.params.number);
  } catch (err) {
    if (err instanceof PlatformError && err.code === 'release_conflict') return releasesPage(s, err.message, 409);
    throw err;
  }
  s.seeOther(
    installedPath(s, s.params.themeId, '/releases'),
    `Rolled back: release ${String(release.number)} is ${e.bundle.package.name}’s templates and settings now.`,
  );
}
