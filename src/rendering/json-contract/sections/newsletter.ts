import { blocks } from '../blocks.js';
import { heading, type BuiltInSection, type SectionTemplate } from '../parts.js';

const render: SectionTemplate = (section, env) =>
  `<div class="newsletter__inner page-width">${heading(section.settings.title ?? section.settings.heading, 'newsletter__title')}${blocks(section, env)}</div>`;

/** A heading and its blocks (the email form among them). */
export const newsletter: BuiltInSection = {
  render,
  rendersBlocks: true,
};
