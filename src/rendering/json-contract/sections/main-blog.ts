import { escapeHtml } from '../../../html.js';
import { text, type BuiltInSection, type SectionTemplate } from '../parts.js';

const render: SectionTemplate = (section, env) => {
  const articles = env.page.blog?.articles ?? [];
  const list =
    articles.length === 0
      ? `<p class="main-blog__empty">${text(env, 'blog.empty', 'No articles yet. Check back soon.')}</p>`
      : `<div class="main-blog__articles">${articles
          .map((a) => {
            const meta = [a.author, a.published_at ? a.published_at.slice(0, 10) : null]
              .filter((x): x is string => !!x)
              .map(escapeHtml)
              .join(' · ');
            return `<article class="article-card" id="article-${escapeHtml(a.handle)}"><h2 class="article-card__title">${escapeHtml(a.title)}</h2>${meta ? `<p class="article-card__meta">${meta}</p>` : ''}<div class="article-card__body rte">${a.body_html}</div></article>`;
          })
          .join('')}</div>`;
  return (
    `<div class="main-blog__inner page-width"><h1 class="main-blog__title">${escapeHtml(typeof section.settings.title === 'string' && section.settings.title ? section.settings.title : (env.t('blog.title') ?? 'News'))}</h1>` +
    `${list}</div>`
  );
};

/** The blog: its articles, newest first, or a line saying there are none yet. */
export const mainBlog: BuiltInSection = {
  render,
};
