import { blocks } from '../blocks.js';
import { heading, type BuiltInSection, type SectionTemplate } from '../parts.js';

const render: SectionTemplate = (section, env) =>
  `<div class="rich-text__inner page-width">${heading(section.settings.title ?? section.settings.heading, 'rich-text__title')}${blocks(section, env)}</div>`;

/** A heading (`title` or `heading`) and its blocks. */
export const richText: BuiltInSection = {
  render,
  rendersBlocks: true,
};
