import { invalidInput } from '../errors.js';
import type { AppRouter } from '../http/context.js';
import { routes, storeScoped } from '../http/endpoint.js';
import { readMultipart } from '../http/multipart.js';
import { parseInput } from '../http/validate.js';
import { PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { storageFileRoutes } from '../storage/index.js';
import { UploadFields } from './schemas.js';
import { deleteMedia, getMedia, listMedia, uploadMedia } from './service.js';

const read = storeScoped('read_files');
const write = storeScoped('write_files');

/**
 * /v1/media: a store's images (merchant session + X-Store-Id, or an app with the files
 * scopes), and the signed file URLs of the local storage driver (no session: the signature is
 * the permission).
 */
export function mediaRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  const files = storageFileRoutes(platform);
  on.router.use(files.routes(), files.allowedMethods());

  on.post('/', { access: write, body: 'multipart', status: 201 }, async ({ ctx, store }) => {
    const form = await readMultipart(ctx, { maxFileBytes: platform.config.media.maxBytes, maxFiles: 1, maxFields: 5 });
    const extraFiles = Object.keys(form.files).filter((name) => name !== 'file');
    const file = form.files.file?.[0];
    if (!file || extraFiles.length > 0) {
      throw invalidInput([
        ...(file ? [] : [{ path: 'file', message: 'one image file is required in the "file" field' }]),
        ...extraFiles.map((name) => ({ path: name, message: 'Unrecognized file field' })),
      ]);
    }
    const fields = parseInput(UploadFields, form.fields, 'body');
    return uploadMedia(platform, store.id, file, fields);
  });

  on.get('/', { access: read, query: PageQuery.strict(), respond: 'page' }, ({ store, query }) => listMedia(platform, store.id, query));

  on.get('/:id', { access: read }, ({ store, params }) => getMedia(platform, store.id, params.id));

  on.delete('/:id', { access: write, respond: 'empty' }, ({ store, params }) => deleteMedia(platform, store.id, params.id));

  return on.router;
}
