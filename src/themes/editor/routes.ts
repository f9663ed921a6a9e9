import { ObjectId } from 'mongodb';
import { storeScoped, type Routes } from '../../http/endpoint.js';
import type { ScopedStore } from '../../http/context.js';
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
export function addEditorRoutes(platform: Platform, on: Routes): void {
  // The installed theme a request edits: its slug in the path, which install (when several) in `theme_id`.
  const themeOf = (r: { store: ScopedStore; params: { slug: string }; query: { theme_id?: string } }) =>
    editableTheme(platform, r.store, r.params.slug, r.query.theme_id);

  on.get('/:slug/editor', { access: read, query: EditorQuery }, async (r) => editorState(platform, r.store, await themeOf(r)));

  on.put('/:slug/editor/draft', { access: write, query: EditorQuery, body: SaveDraftBody, respond: 'raw' }, async (r) => {
    const { ctx, principal, body } = r;
    const e = await themeOf(r);
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
  });

  on.delete('/:slug/editor/draft', { access: write, query: DiscardDraftQuery }, async (r) =>
    discardDraft(platform, await themeOf(r), new ObjectId(r.principal.merchantId), r.query.template_key),
  );

  on.post('/:slug/editor/publish', { access: write, query: EditorQuery, body: PublishBody, idempotent: true, status: 201 }, async (r) =>
    publishDrafts(platform, await themeOf(r), new ObjectId(r.principal.merchantId), r.body.template_keys),
  );

  on.get('/:slug/releases', { access: read, query: ReleasesQuery, respond: 'page' }, async (r) => listReleases(platform, await themeOf(r), r.query));

  on.get('/:slug/releases/:number', { access: read, query: EditorQuery }, async (r) => getRelease(platform, await themeOf(r), r.params.number));

  on.post('/:slug/releases/:number/rollback', { access: write, query: EditorQuery, idempotent: true, status: 201 }, async (r) =>
    rollbackRelease(platform, await themeOf(r), new ObjectId(r.principal.merchantId), r.params.number),
  );

  on.post('/:slug/preview-session', { access: write, query: EditorQuery, body: PreviewSessionBody, idempotent: true, status: 201 }, async (r) =>
    createPreviewSession(platform, await themeOf(r), new ObjectId(r.principal.merchantId), r.body.template_key),
  );
}
