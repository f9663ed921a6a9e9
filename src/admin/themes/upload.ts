import { PlatformError } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import { blankForm, csrfInput, errorSummary, fileField, select, type FormState } from '../../http/ui/forms.js';
import { badge, facts, heading, table, when, type Tone } from '../../http/ui/parts.js';
import { zodIssues } from '../../http/validate.js';
import { getAuthoredPackage, MAX_BUNDLE_BYTES, ThemeUploadBody, uploadPackage, type AuthoredVersion, type ReviewView } from '../../themes/index.js';
import { storePage } from '../layout.js';
import type { StorePage } from '../request.js';
import { catalogPath, themesPath, themesTabs } from './paths.js';

/**
 * Upload a theme of one's own (docs/admin.md, Themes): a JSON bundle file through the upload
 * service of `POST /v1/themes/packages/upload`, whose validator is strict and reports every
 * problem at its path (shown as a list; nothing is stored). Any merchant may upload: a private
 * theme (`private_install`) is installable at once into the uploader's own stores and never
 * listed; a marketplace one is reviewed (the themes worker's checks, then an operator) first.
 * An upload's page shows each version's review as its author may see it, and Install when it may be.
 */

export type UploadedPage = StorePage<{ storeId: string; slug: string }>;

/** The largest bundle file the form takes: the API's bundle limit (its JSON envelope is not in a file). */
export const uploadLimit = () => MAX_BUNDLE_BYTES;

const MODES = [
  { value: 'private_install', label: 'Private: for my stores only, installable at once' },
  { value: 'marketplace', label: 'Theme store: submit it for review and sale' },
];

/** The bundle's problems as the validator words them (`path: what is wrong`), each path set apart. */
function bundleProblems(details: readonly string[]): Markup {
  return html`<div class="errors" role="alert">
    <strong>The bundle was not uploaded: ${String(details.length)} ${details.length === 1 ? 'problem' : 'problems'}, each at its path</strong>
    <ul>
      ${details.map((d) => {
        const at = d.indexOf(': ');
        return at > 0 ? html`<li><code>${d.slice(0, at)}</code>: ${d.slice(at + 2)}</li>` : html`<li>${d}</li>`;
      })}
    </ul>
  </div>`;
}

export type UploadRefusal = { form: FormState; details: readonly string[]; status: number };

export function uploadPage(s: StorePage, refused: UploadRefusal | null = null): void {
  const form = refused?.form ?? blankForm();
  const body = html`${heading('Upload a theme', 'A theme bundle: one JSON file, as docs/themes.md describes it.')}
    ${themesTabs(s, 'upload')}
    ${refused?.details.length ? bundleProblems(refused.details) : null}
    <form class="card" method="post" action="${themesPath(s, '/upload')}" enctype="multipart/form-data" novalidate>
      ${csrfInput(s.viewer.csrf)}${errorSummary(form.problems)}
      ${fileField(form, 'file', 'Theme bundle', { accept: 'application/json,.json', hint: `A .json file, up to ${String(MAX_BUNDLE_BYTES / 1024 / 1024)} MB` })}
      ${select(form, 'submission_mode', 'Who may install it', MODES, { selected: 'private_install' })}
      <p class="muted">A new version of a theme you uploaded keeps its slug and needs a higher <code>package.version_number</code>.</p>
      <button class="button" type="submit">Upload theme</button>
    </form>`;
  s.render(storePage(s, 'themes', { title: 'Upload a theme', body }), refused?.status ?? 200);
}

/** The file's JSON, or what is wrong with it (said at the file field). */
function bundleOf(bytes: Buffer): { bundle: unknown } | { problem: string } {
  if (bytes.length === 0) return { problem: 'choose a theme bundle file (.json) to upload' };
  try {
    return { bundle: JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')) as unknown };
  } catch (err) {
    return { problem: `is not JSON: ${(err as Error).message}` };
  }
}

export async function uploadAction(s: StorePage): Promise<void> {
  const values = new Map([...s.form].filter(([k]) => k === 'submission_mode'));
  const atFile = (problem: string, status: number) =>
    uploadPage(s, { form: { values, errors: new Map([['file', problem]]), problems: [] }, details: [], status });
  const upload = s.upload!;
  if ('refused' in upload) {
    const tooLarge = upload.refused.kind === 'payload_too_large';
    return atFile(tooLarge ? `is larger than ${String(MAX_BUNDLE_BYTES / 1024 / 1024)} MB` : 'could not be read: choose the file again', tooLarge ? 413 : 400);
  }
  const read = bundleOf(upload.file?.bytes ?? Buffer.alloc(0));
  if ('problem' in read) return atFile(read.problem, 400);
  const parsed = ThemeUploadBody.safeParse({ bundle: read.bundle, submission_mode: s.form.get('submission_mode') || undefined });
  if (!parsed.success) {
    const issues = zodIssues(parsed.error);
    const errors = new Map(issues.map((i) => [i.path.startsWith('bundle') ? 'file' : 'submission_mode', i.message]));
    return uploadPage(s, { form: { values, errors, problems: [] }, details: [], status: 400 });
  }
  try {
    const done = await uploadPackage(s.platform, s.viewer.merchant, s.store.id, parsed.data);
    const mode = done.result.review_record ? 'its review is queued' : 'it can be installed now';
    s.seeOther(themesPath(s, `/uploads/${done.result.package.slug}`), `Version ${done.result.version.version} is uploaded: ${mode}.`);
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    if (err.code === 'invalid_bundle')
      return uploadPage(s, { form: { values, errors: new Map(), problems: [] }, details: err.extra.details ?? [], status: 400 });
    // The slug is another author's (403 in the API), or the version or mode does not follow the package's (409): said at the file.
    if (err.code === 'theme_slug_taken' || err.kind === 'conflict') return atFile(err.message, err.code === 'theme_slug_taken' ? 403 : 409);
    throw err;
  }
}

const REVIEW: Record<ReviewView['status'], { text: string; tone: Tone }> = {
  pending_checks: { text: 'queued: checks running', tone: 'warn' },
  checks_failed: { text: 'checks failed', tone: 'bad' },
  awaiting_review: { text: 'checks passed: awaiting an operator', tone: 'warn' },
  approved: { text: 'approved', tone: 'ok' },
  rejected: { text: 'rejected', tone: 'bad' },
};

/** A version's review as its author sees it: the status, each failed or warning check's findings, an operator's reasons. */
function reviewOf(v: AuthoredVersion): Markup {
  if (!v.review) return html`${badge('private: no review', 'neutral')}`;
  const r = v.review;
  const findings = r.checks.filter((c) => c.status === 'failed' || c.status === 'warning');
  return html`${badge(REVIEW[r.status].text, REVIEW[r.status].tone)}
    ${findings.map(
      (c) =>
        html`<details>
          <summary>${c.name}: ${c.status}</summary>
          <ul>
            ${c.details.map((d) => html`<li>${d}</li>`)}
          </ul>
        </details>`,
    )}
    ${r.reasons.length ? html`<p>Reasons: ${r.reasons.join('; ')}</p>` : null}`;
}

/** One of the merchant's uploads: its versions and reviews, and Install when its published version may be installed. */
export async function uploadedPage(s: UploadedPage): Promise<void> {
  const { package: p, versions } = await getAuthoredPackage(s.platform, s.viewer.merchant.merchantId, s.params.slug);
  const installable = versions.some((v) => v.installable);
  const pending = versions.some((v) => v.review?.status === 'pending_checks');
  const body = html`${heading(p.name, `${p.slug} · by ${p.author_name}`)}
    ${themesTabs(s, null)}
    ${facts([
      ['Kind', p.visibility === 'private' ? 'Private: installable in your stores only, never listed' : 'Theme store'],
      ['Status', p.status === 'active' ? badge('published', 'ok') : p.status === 'rejected' ? badge('rejected', 'bad') : badge('not published yet', 'warn')],
    ])}
    ${installable ? html`<p><a class="button" href="${catalogPath(s, p.slug)}">Install ${p.name}</a></p>` : null}
    ${pending ? html`<p class="muted" role="status">The checks take a moment. <a href="${themesPath(s, `/uploads/${p.slug}`)}">Check again</a></p>` : null}
    <h2>Versions</h2>
    ${table({
      label: `Versions of ${p.name}`,
      headings: ['Version', 'Uploaded', 'Status', 'Review'],
      rows: versions.map((v) => [html`${v.version} <span class="muted">(#${String(v.version_number)})</span>`, when(v.created_at), v.status, reviewOf(v)]),
      empty: 'No versions.',
      stack: true,
    })}`;
  s.render(storePage(s, 'themes', { title: p.name, body }));
}
