import { notFound } from '../../../errors.js';
import { draftRenderableTheme, SETTINGS_DATA_KEY } from '../../../themes/index.js';
import { askedTemplate, sendPreviewFrame } from '../preview-frame.js';
import type { EditorPage } from './load.js';

/**
 * GET `…/editor/preview?template=`: the template as its draft renders (docs/admin.md, The theme
 * editor), what the editor's frame shows: the store's own theme with its drafts of that template
 * and of the theme settings laid over the live copy (`draftRenderableTheme`, as a preview session
 * shows them), framed and sandboxed as every admin preview (../preview-frame.ts). The admin's
 * session is the proof (no token in any address).
 */
export async function previewFrame(s: EditorPage): Promise<void> {
  const template = askedTemplate(s);
  const theme = await draftRenderableTheme(s.platform, s.store.id, s.params.themeId, [template, SETTINGS_DATA_KEY]);
  if (!theme) throw notFound('Installed theme');
  await sendPreviewFrame(s, theme, template);
}
