import type { apiClient, Json } from './api-client.js';
import { DEMO_COLLECTIONS } from './demo-catalog.js';

/**
 * The demo store's words (`npm run demo`): its pages, its journal, its menus, and the copy of its
 * theme. A theme's own texts are placeholders a merchant replaces in the theme editor ("Talk about
 * your brand"); the demo replaces them as a merchant would, so the shop reads as one shop.
 */

type Call = ReturnType<typeof apiClient>;
type Headers = Record<string, string>;

const PAGES = [
  {
    title: 'About us',
    handle: 'about',
    body_html:
      '<p>Lumen &amp; Loom began in 2019 in a small studio in Lisbon, with one loom and a kiln shared with the potter next door.</p>' +
      '<p>We make and gather things for the rooms you live in: linen woven in Guimarães, stoneware thrown in Caldas da Rainha, candles poured by hand. Every maker is named on the product.</p>',
  },
  {
    title: 'Shipping and returns',
    handle: 'shipping-returns',
    body_html:
      '<p>Orders leave the studio within two working days. Standard shipping takes 3–5 days and costs $4.95; express arrives the next working day for $14.95. Orders over $75 ship free.</p>' +
      '<p>Changed your mind? Send anything back unused within 30 days for a full refund.</p>',
  },
  {
    title: 'Contact',
    handle: 'contact',
    body_html:
      '<p>Write to <a href="mailto:hello@lumenandloom.example">hello@lumenandloom.example</a>, or visit the studio at 12 Rua das Flores, Lisbon (Thursday to Saturday, 11:00–18:00).</p>',
  },
] as const;

const ARTICLES = [
  {
    title: 'Made to last',
    handle: 'made-to-last',
    author: 'Inês Duarte',
    body_html:
      '<p>A linen throw gets softer every time it is washed. We choose materials that age well, and makers who repair what they make.</p>' +
      '<p>This season: a heavier weave for winter, and the return of the speckled glaze.</p>',
  },
  {
    title: 'A day at the kiln',
    handle: 'a-day-at-the-kiln',
    author: 'Rui Matos',
    body_html: '<p>Firing day starts at five. Twelve hours, 1,280 °C, and a long wait before the door can open.</p>',
  },
] as const;

/** The demo's pages and journal articles (made, or brought back to these words when they exist), and its main menu (the departments, the journal, About). */
export async function fillDemoContent(call: Call, as: Headers): Promise<void> {
  const pages: Json[] = (await call('GET', '/v1/pages?limit=250', undefined, as)).data;
  for (const page of PAGES) {
    const found = pages.find((p) => p.handle === page.handle);
    if (found) await call('PATCH', `/v1/pages/${found.id}`, { title: page.title, body_html: page.body_html, published: true }, as);
    else await call('POST', '/v1/pages', page, as);
  }
  const articles: Json[] = (await call('GET', '/v1/articles?limit=250', undefined, as)).data;
  for (const article of ARTICLES) {
    const found = articles.find((a) => a.handle === article.handle);
    if (found) await call('PATCH', `/v1/articles/${found.id}`, { title: article.title, body_html: article.body_html, author: article.author }, as);
    else await call('POST', '/v1/articles', article, as);
  }
  const departments = DEMO_COLLECTIONS.filter((c) => ['home', 'kitchen', 'accessories', 'new-arrivals', 'bestsellers'].includes(c.handle));
  await call(
    'PUT',
    '/v1/menus/main-menu',
    {
      title: 'Main menu',
      items: [
        { title: 'Shop all', url: '/collections/all' },
        ...departments.map((c) => ({ title: c.title, url: `/collections/${c.handle}` })),
        { title: 'Journal', url: '/blogs/news' },
        { title: 'About', url: '/pages/about' },
      ],
    },
    as,
  );
}

/**
 * The demo's copy in its Aurora theme: the home page's hero, story, image-with-text and the
 * footer's text, where the theme has placeholders (`theme` is the bundle the demo uploads).
 */
export function withDemoCopy(theme: Json): Json {
  const home = theme.templates.home.sections;
  home.hero.blocks.heading.settings.heading = 'New season, new light';
  home.hero.blocks.text.settings.text = '<p>Linen, wool, clay and light for the rooms you live in, made by hand in Portugal.</p>';
  home.story.blocks.heading.settings.heading = 'Our story';
  home.story.blocks.text.settings.text =
    '<p>Lumen &amp; Loom began in a small Lisbon studio with one loom and a shared kiln. We still work with the same makers, a few streets apart.</p>';
  home.split.blocks.heading.settings.heading = 'Made to last';
  home.split.blocks.button.settings.label = 'Read the journal';
  home.split.blocks.button.settings.link = '/blogs/news';
  theme.config.settings_data.current.footer_text = '<p>Made in small batches in Lisbon. Free shipping on orders over $75.</p>';
  return theme;
}
