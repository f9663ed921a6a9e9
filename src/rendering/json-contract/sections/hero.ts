import { blocks } from '../blocks.js';
import { modifier, sectionImage, type BuiltInSection, type SectionTemplate } from '../parts.js';

const render: SectionTemplate = (section, env) => {
  const image = sectionImage(section, env, 'hero__image', true);
  return (
    `<div class="hero__media">${image ?? ''}</div><div class="hero__overlay" aria-hidden="true"></div>` +
    `<div class="hero__content page-width"><div class="hero__blocks">${blocks(section, env)}</div></div>`
  );
};

/** The hero: an image from its `image` asset behind its blocks; `height` as a modifier, `hero--no-media` without an image. */
export const hero: BuiltInSection = {
  render,
  rendersBlocks: true,
  modifiers: (section, env) => {
    const height = modifier(section.settings.height);
    return [...(height ? [`hero--${height}`] : []), ...(sectionImage(section, env, '') ? [] : ['hero--no-media'])];
  },
};
