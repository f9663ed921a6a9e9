import { ObjectId } from 'mongodb';
import type { AppRouter } from '../../http/context.js';
import { endpoint, storeScoped } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { discardDraft, editableTheme, editorState, saveDraft } from './drafts.js';
import { createPreviewSession } from '../previews/sessions.js';
import { getRelease, listReleases, publishDrafts, rollbackRelease } from './releases.js';
import { DiscardDraftQuery, EditorQuery, PreviewSessionBody, PublishBody, ReleasesQuery, SaveDraftBody } from '../schemas.js';

/** Reads: merchants, and apps granted read_themes. Changes (drafts, publish, rollback, previews): the store's merchant only. */
const read = storeScoped('read_themes');
const write = storeScoped('write_themes', { apps: false });

/**
 * The theme editor of a store's installed theme (docs/themes.md, Editor and drafts, Releases and
 * rollback, Preview sessions), on the `/v1/themes` router.
 */
export function addEditorRoutes(platform: Platform, router: AppRouter): void {
  router.get(
    '/:slug/editor',
    endpoint(platform, { access: read, query: EditorQuery }, async ({ store, params, query }) =>
      editorState(platform, store, await editableTheme(platform, store, params.slug!, query.theme_id)),
    ),
  );

  router.put(
    '/:slug/editor/draft',
    endpoint(platform, { access: write, query: EditorQuery, body: SaveDraftBody, respond: 'raw' }, async ({ ctx, principal, store, params, query, body }) => {
      const e = await editableTheme(platform, store, params.slug!, query.theme_id);
      const saved = await saveDraft(platform, e, new ObjectId(principal.merchantId), body.template_key, body.content, body.version);
      if (saved.outcome === 'conflict') {
        // Like a stale cart PATCH: the error, with the draft as it is now (its version to build on).
        ctx.status = 409;
        ctx.body = {
          error: {
            code: 'draft_version_conflict',
            message: 'The draft changed since it was read; apply your edit to the draft returned here and send its version',
            request_id: ctx.state.requestId,
          },
          data: saved.draft,
        };
        return;
      }
      ctx.status = 200;
      ctx.body = { data: saved.draft };
    }),
  );

  router.delete(
    '/:slug/editor/draft',
    endpoint(platform, { access: write, query: DiscardDraftQuery }, async ({ principal, store, params, query }) =>
      discardDraft(platform, await editableTheme(platform, store, params.slug!, query.theme_id), new ObjectId(principal.merchantId), query.template_key),
    ),
  );

  router.post(
    '/:slug/editor/publish',
    endpoint(
      platform,
      { access: write, query: EditorQuery, body: PublishBody, idempotent: true, status: 201 },
      async ({ principal, store, params, query, body }) =>
        publishDrafts(platform, await editableTheme(platform, store, params.slug!, query.theme_id), new ObjectId(principal.merchantId), body.template_keys),
    ),
  );

  router.get(
    '/:slug/releases',
    endpoint(platform, { access: read, query: ReleasesQuery, respond: 'page' }, async ({ store, params, query }) =>
      listReleases(platform, await editableTheme(platform, store, params.slug!, query.theme_id), query),
    ),
  );

  router.get(
    '/:slug/releases/:number',
    endpoint(platform, { access: read, query: EditorQuery }, async ({ store, params, query }) =>
      getRelease(platform, await editableTheme(platform, store, params.slug!, query.theme_id), params.number!),
    ),
  );

  router.post(
    '/:slug/releases/:number/rollback',
    endpoint(platform, { access: write, query: EditorQuery, idempotent: true, status: 201 }, async ({ principal, store, params, query }) =>
      rollbackRelease(platform, await editableTheme(platform, store, params.slug!, query.theme_id), new ObjectId(principal.merchantId), params.number!),
    ),
  );

  router.post(
    '/:slug/preview-session',
    endpoint(
      platform,
      { access: write, query: EditorQuery, body: PreviewSessionBody, idempotent: true, status: 201 },
      async ({ principal, store, params, query, body }) =>
        createPreviewSession(
          platform,
          await editableTheme(platform, store, params.slug!, query.theme_id),
          new ObjectId(principal.merchantId),
          body.template_key,
        ),
    ),
  );
}
