import { escapeHtml } from '../html.js';
import { ownValue } from '../own-keys.js';
import { renderAppBlock } from './app-blocks.js';
import { blocks, dataAttributes } from './json-contract/blocks.js';
import { cssVariables } from './json-contract/css.js';
import { heading, sectionImage, type JsonContractEnv } from './json-contract/parts.js';
import { BUILT_IN_SECTIONS } from './json-contract/sections/index.js';
import type { RenderedSection } from './sections.js';

export { cssSettingValue } from './json-contract/css.js';
export { renderJsonContractLayout } from './json-contract/layout.js';
export type { JsonContractEnv } from './json-contract/parts.js';

/*
 * The built-in renderer's markup is a contract (docs/rendering.md, "Markup contract"): themes
 * write their CSS against these class names and this structure, so a change here is a change of
 * the contract (the goldens in fixtures/rendering/ show it whole). Each built-in section is a file
 * of json-contract/sections/, listed in its index; the layout around them is json-contract/layout.ts.
 */

/** One section's HTML: its built-in template by `renderer_key`, or the generic one, in a `<section>` carrying its settings. */
export function renderJsonContractSection(section: RenderedSection, env: JsonContractEnv): string {
  const builtIn = BUILT_IN_SECTIONS.get(section.rendererKey);
  const key = escapeHtml(section.rendererKey);
  const classes = [`section section--${key}`];
  let content: string;
  if (builtIn) {
    classes.push(key, ...(builtIn.modifiers?.(section, env) ?? []));
    content = builtIn.render(section, env);
    if (!builtIn.rendersBlocks) {
      const apps = section.blocks.filter((b) => b.app);
      if (apps.length > 0) content += `<div class="section__app-blocks page-width">${apps.map(renderAppBlock).join('')}</div>`;
    }
  } else {
    // Any other section: its image, its `title` or `heading`, then its blocks.
    const image = sectionImage(section, env, 'section__image');
    content = `<div class="section__inner page-width">${image ? `<div class="section__media">${image}</div>` : ''}${heading(section.settings.title ?? section.settings.heading, 'section__title')}${blocks(section, env)}</div>`;
  }
  const vars = cssVariables(ownValue(env.bundle.sections, section.type)?.settings_schema ?? [], section.settings);
  return (
    `<section id="section-${escapeHtml(section.id)}" class="${classes.join(' ')}" data-section-type="${escapeHtml(section.type)}"${dataAttributes(section.settings)}` +
    `${vars.length ? ` style="${escapeHtml(vars.join(' '))}"` : ''}>${content}</section>`
  );
}
