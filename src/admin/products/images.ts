import { getProduct, mediaInUse, updateProduct, type ProductView } from '../../catalog/index.js';
import { notFound, PlatformError } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import { blankForm, csrfInput, errorSummary, field, fileField, formWithIssues, type FormState } from '../../http/ui/forms.js';
import { confirmStep } from '../../http/ui/parts.js';
import { zodIssues } from '../../http/validate.js';
import { deleteMedia, findMediaFile, mediaByIds, uploadMedia, UploadFields, type MediaView } from '../../media/index.js';
import { refusedForm } from '../forms.js';
import { storePage } from '../layout.js';
import { storePath, type StorePage } from '../request.js';

/**
 * A product's images (docs/admin.md, Products): uploaded through the media service of `POST
 * /v1/media` (its limits, its type check from the bytes) and linked as the REST API links them,
 * the product's `media_ids` through the catalog's `updateProduct`, whose order is the shop's (the
 * first is the product's image in lists). Media cannot be edited (docs/media.md), so new alt text
 * is the API's way too: the same file uploaded again with it, in the old one's place, the old one
 * deleted. Removing an image deletes its media once no product shows it.
 */

export type ImagePage = StorePage<{ storeId: string; productId: string; mediaId?: string }>;
/** A refused image form shown again: the upload form (`mediaId` null) or one image's alt text. */
export type ImageForm = { mediaId: string | null; form: FormState };

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';
const imagesPath = (s: StorePage, p: ProductView, rest = '') => storePath(s.store, `/products/${p.id}/images${rest}`);
/** A size limit as a merchant reads it: `10 MB`, `16 KB`. */
const sizeOf = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`);

/** The images section of a product's page: each image with its alt text, order and Remove, and the upload form. */
export function imagesSection(s: StorePage, p: ProductView, media: ReadonlyMap<string, MediaView>, refused: ImageForm | null): Markup {
  const shown = p.media_ids.flatMap((id) => media.get(id) ?? []);
  const formOf = (id: string | null, alt: string | null) => (refused && refused.mediaId === id ? refused.form : blankForm(new Map([['alt', alt ?? '']])));
  const last = shown.length - 1;
  const items = shown.map((m, i) => {
    const at = imagesPath(s, p, `/${m.id}`);
    const which = html`<span class="visually-hidden"> image ${String(i + 1)}</span>`;
    const form = formOf(m.id, m.alt);
    return html`<li class="card" style="display:flex;gap:16px;flex-wrap:wrap;align-items:flex-start">
      <img src="${m.url ?? ''}" alt="${m.alt ?? ''}" width="120" height="120" style="object-fit:contain;border-radius:6px;background:#eef0f3;flex:none">
      <div style="flex:1 1 220px;min-width:0">
        <p style="margin:0 0 8px;overflow-wrap:anywhere"><strong>${i === 0 ? 'Main image' : `Image ${i + 1}`}</strong> <span class="muted">${m.filename} · ${String(m.width)}×${String(m.height)} px</span></p>
        <form method="post" action="${at}" novalidate>
          ${csrfInput(s.viewer.csrf)}${errorSummary(form.problems)}
          ${field(form, 'alt', 'Alt text', { id: `alt-${m.id}`, hint: 'What the image shows, for shoppers who cannot see it' })}
          <button class="button button--secondary" type="submit">Save alt text${which}</button>
        </form>
        <form class="actions" style="margin-top:10px" method="post" action="${at}/move">
          ${csrfInput(s.viewer.csrf)}
          ${i > 0 ? html`<button class="button button--secondary" type="submit" name="to" value="up">Move up${which}</button>` : null}
          ${i < last ? html`<button class="button button--secondary" type="submit" name="to" value="down">Move down${which}</button>` : null}
          <a class="button button--danger" href="${at}/remove">Remove${which}</a>
        </form>
      </div>
    </li>`;
  });
  const upload = formOf(null, null);
  return html`<h2 id="images">Images</h2>
    ${items.length ? html`<ol style="list-style:none;margin:0;padding:0">${items}</ol>` : html`<p class="muted">No images yet: upload the first, it becomes the product’s image in the shop and in lists.</p>`}
    <form class="card" method="post" action="${imagesPath(s, p)}" enctype="multipart/form-data" novalidate>
      ${csrfInput(s.viewer.csrf)}${errorSummary(upload.problems)}
      <div class="grid">
        ${fileField(upload, 'file', 'Image', { accept: ACCEPT, hint: `PNG, JPEG, GIF or WebP, up to ${sizeOf(s.platform.config.media.maxBytes)}` })}
        ${field(upload, 'alt', 'Alt text', { id: 'alt-new', hint: 'What the image shows' })}
      </div>
      <button class="button" type="submit">Upload image</button>
    </form>`;
}

/** The product, and the image of the path among its images (another product's or store's media is the 404 page). */
async function productAndImage(s: ImagePage): Promise<{ p: ProductView; mediaId: string }> {
  const p = await getProduct(s.platform, s.store.id, s.params.productId);
  const mediaId = s.params.mediaId ?? '';
  if (!p.media_ids.includes(mediaId)) throw notFound('Image');
  return { p, mediaId };
}

/** The alt text field through the API's own upload schema: its value, or the form with the issue at the field. */
function altOf(form: ReadonlyMap<string, string>): { alt: string | undefined } | { form: FormState } {
  const parsed = UploadFields.safeParse({ alt: form.get('alt') ?? '' });
  return parsed.success ? { alt: parsed.data.alt } : { form: formWithIssues(form, zodIssues(parsed.error), new Set(['alt'])) };
}

type Done = { done: string } | { refused: ImageForm; status: number };

/** What a file form's refusal says at the file field, and its status: too large, not an image, damaged, none chosen. */
function fileRefusal(err: unknown, maxBytes: number): { message: string; status: number } {
  if (!(err instanceof PlatformError)) throw err;
  if (err.kind === 'payload_too_large') return { message: `is larger than ${sizeOf(maxBytes)}: choose a smaller image`, status: 413 };
  if (err.kind === 'unsupported_media_type') return { message: 'must be a PNG, JPEG, GIF or WebP image', status: 415 };
  if (err.code === 'invalid_multipart') return { message: 'choose an image file to upload', status: 400 };
  if (err.kind === 'invalid_data') return { message: err.message, status: 400 };
  throw err;
}

/** Upload: the media service stores the file (or refuses it, said at the field), then the product links it last; a refused link deletes it again. */
export async function uploadImage(s: ImagePage): Promise<Done> {
  const p = await getProduct(s.platform, s.store.id, s.params.productId);
  const maxBytes = s.platform.config.media.maxBytes;
  const atFile = (err: unknown, values: ReadonlyMap<string, string> = s.form): Done => {
    const { message, status } = fileRefusal(err, maxBytes);
    return { refused: { mediaId: null, form: { values, errors: new Map([['file', message]]), problems: [] } }, status };
  };
  const upload = s.upload!;
  if ('refused' in upload) return atFile(upload.refused, new Map());
  if (!upload.file) return atFile(new PlatformError('invalid_data', 'invalid_multipart', 'no file'));
  const alt = altOf(s.form);
  if ('form' in alt) return { refused: { mediaId: null, form: alt.form }, status: 400 };
  let made: MediaView;
  try {
    made = await uploadMedia(s.platform, s.store.id, upload.file, { alt: alt.alt });
  } catch (err) {
    return atFile(err);
  }
  const linked = await relink(s, p, [...p.media_ids, made.id], null);
  if ('refused' in linked) await deleteMedia(s.platform, s.store.id, made.id);
  return 'refused' in linked ? linked : { done: `Image “${made.filename}” uploaded.` };
}

/** The product's `media_ids` set through the catalog service; a refusal (250 images, an edit in between) is the form's message. */
async function relink(s: ImagePage, p: ProductView, mediaIds: string[], mediaId: string | null): Promise<Done> {
  try {
    await updateProduct(s.platform, s.store.id, p.id, { media_ids: mediaIds });
    return { done: 'Images saved.' };
  } catch (err) {
    return { refused: { mediaId, form: refusedForm(s.form, err, new Set()) }, status: 409 };
  }
}

/** New alt text: the image's file uploaded again with it, put in the old one's place, the old one deleted (media cannot be edited). */
export async function saveAltText(s: ImagePage): Promise<Done> {
  const { p, mediaId } = await productAndImage(s);
  const alt = altOf(s.form);
  if ('form' in alt) return { refused: { mediaId, form: alt.form }, status: 400 };
  const [file, view] = await Promise.all([findMediaFile(s.platform, s.store.id, mediaId), mediaByIds(s.platform, s.store.id, [mediaId])]);
  const opened = await file?.open();
  if (!opened) throw notFound('Image');
  const chunks: Buffer[] = [];
  for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
  const filename = view.get(mediaId)?.filename ?? file!.media.url_filename;
  const made = await uploadMedia(s.platform, s.store.id, { filename, bytes: Buffer.concat(chunks) }, { alt: alt.alt });
  const linked = await relink(
    s,
    p,
    p.media_ids.map((id) => (id === mediaId ? made.id : id)),
    mediaId,
  );
  if ('refused' in linked) {
    await deleteMedia(s.platform, s.store.id, made.id);
    return linked;
  }
  await forgetUnused(s, mediaId);
  return { done: 'Alt text saved.' };
}

/** Move an image one place up or down (its order is the shop's). */
export async function moveImage(s: ImagePage): Promise<Done> {
  const { p, mediaId } = await productAndImage(s);
  const from = p.media_ids.indexOf(mediaId);
  const to = s.form.get('to') === 'up' ? from - 1 : from + 1;
  if (to < 0 || to >= p.media_ids.length) return { done: 'Images saved.' };
  const ids = [...p.media_ids];
  [ids[from], ids[to]] = [ids[to]!, ids[from]!];
  const moved = await relink(s, p, ids, mediaId);
  return 'refused' in moved ? moved : { done: 'Image moved.' };
}

/** Remove's confirm step (a GET of its address; its form posts the removal). */
export async function confirmRemoveImage(s: ImagePage): Promise<void> {
  const { p, mediaId } = await productAndImage(s);
  const back = storePath(s.store, `/products/${p.id}#images`);
  const body = confirmStep({
    question: `Remove image ${p.media_ids.indexOf(mediaId) + 1} of “${p.title}”?`,
    detail: 'It leaves the product, and the shop; its file is deleted unless another product shows it. This cannot be undone.',
    action: imagesPath(s, p, `/${mediaId}/remove`),
    csrf: s.viewer.csrf,
    button: 'Remove the image',
    back: { href: back, label: 'Keep it' },
  });
  s.render(storePage(s, 'products', { title: `Remove an image of ${p.title}?`, body }));
}

export async function removeImage(s: ImagePage): Promise<Done> {
  const { p, mediaId } = await productAndImage(s);
  const removed = await relink(
    s,
    p,
    p.media_ids.filter((id) => id !== mediaId),
    mediaId,
  );
  if ('refused' in removed) return removed;
  await forgetUnused(s, mediaId);
  return { done: 'Image removed.' };
}

/** Delete a media file that no product shows any more (the API lets products share one). */
async function forgetUnused(s: ImagePage, mediaId: string): Promise<void> {
  if (!(await mediaInUse(s.platform, s.store.id, mediaId))) await deleteMedia(s.platform, s.store.id, mediaId);
}
