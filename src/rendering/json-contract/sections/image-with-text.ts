import { blocks } from '../blocks.js';
import { modifier, placeholder, sectionImage, type BuiltInSection, type SectionTemplate } from '../parts.js';

const render: SectionTemplate = (section, env) =>
  `<div class="image-with-text__inner page-width"><div class="image-with-text__media">${sectionImage(section, env, 'image-with-text__image') ?? placeholder('image-with-text__placeholder')}</div>` +
  `<div class="image-with-text__content">${blocks(section, env)}</div></div>`;

/** An image beside its blocks, on the side its `image_position` names (left unless told). */
export const imageWithText: BuiltInSection = {
  render,
  rendersBlocks: true,
  modifiers: (section) => [`image-with-text--image-${modifier(section.settings.image_position) ?? 'left'}`],
};
