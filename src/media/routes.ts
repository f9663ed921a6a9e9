import Router from '@koa/router';
import { z } from 'zod';
import { PlatformError } from '../errors.js';
import { requireMerchant, requireStore } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { readMultipart, type MultipartRoute } from '../http/multipart.js';
import { parseInput } from '../http/validate.js';
import { PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { storageFileRoutes } from '../storage/index.js';
import { UploadFields } from './schemas.js';
import { deleteMedia, getMedia, listMedia, uploadMedia } from './service.js';

const ListQuery = PageQuery.strict();
const NoQuery = z.strictObject({});

/** The routes that read `multipart/form-data` instead of JSON (see http/body.ts). */
export const MEDIA_MULTIPART_ROUTES: readonly MultipartRoute[] = [{ method: 'POST', path: '/v1/media' }];

/**
 * /v1/media: a store's images (merchant session + X-Store-Id), and the signed file URLs of
 * the local storage driver (no session: the signature is the permission).
 */
export function mediaRoutes(platform: Platform): Router<AppState> {
  const router = new Router<AppState>();
  const files = storageFileRoutes(platform);
  router.use(files.routes(), files.allowedMethods());

  const scoped = [requireMerchant(platform), requireStore(platform)];

  router.post('/', ...scoped, async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    const form = await readMultipart(ctx, { maxFileBytes: platform.config.media.maxBytes, maxFiles: 1, maxFields: 5 });
    const extraFiles = Object.keys(form.files).filter((name) => name !== 'file');
    const file = form.files.file?.[0];
    if (!file || extraFiles.length > 0) {
      const details = [
        ...(file ? [] : ['body.file: one image file is required in the "file" field']),
        ...extraFiles.map((name) => `body.${name}: Unrecognized file field`),
      ];
      throw new PlatformError('invalid_data', 'invalid_input', 'The request has invalid input', { details });
    }
    const fields = parseInput(UploadFields, form.fields, 'body');
    ctx.status = 201;
    ctx.body = { data: await uploadMedia(platform, ctx.state.store!.id, file, fields) };
  });

  router.get('/', ...scoped, async (ctx) => {
    const page = parseInput(ListQuery, ctx.query, 'query');
    const { items, nextCursor } = await listMedia(platform, ctx.state.store!.id, page);
    ctx.body = { data: items, page: { next_cursor: nextCursor } };
  });

  router.get('/:id', ...scoped, async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    ctx.body = { data: await getMedia(platform, ctx.state.store!.id, ctx.params.id!) };
  });

  router.delete('/:id', ...scoped, async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    await deleteMedia(platform, ctx.state.store!.id, ctx.params.id!);
    ctx.status = 204;
  });

  return router;
}
