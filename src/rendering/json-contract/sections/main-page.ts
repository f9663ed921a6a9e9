import { escapeHtml } from '../../../html.js';
import type { BuiltInSection, SectionTemplate } from '../parts.js';

const render: SectionTemplate = (_section, env) => {
  const page = env.page.page;
  if (!page) return '';
  return `<article class="main-page__inner page-width"><h1 class="main-page__title">${escapeHtml(page.title)}</h1><div class="main-page__body rte">${page.body_html}</div></article>`;
};

/** A content page: its title and its (sanitised) body. */
export const mainPage: BuiltInSection = {
  render,
};
