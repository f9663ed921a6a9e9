import type { BuiltInSection } from '../parts.js';
import { featuredCollection } from './featured-collection.js';
import { hero } from './hero.js';
import { imageWithText } from './image-with-text.js';
import { mainBlog } from './main-blog.js';
import { mainCart } from './main-cart.js';
import { mainCollection } from './main-collection.js';
import { mainPage } from './main-page.js';
import { mainProduct } from './main-product.js';
import { newsletter } from './newsletter.js';
import { richText } from './rich-text.js';

/**
 * The built-in sections by `renderer_key` (docs/rendering.md, Markup contract), one file each:
 * each its own element classes (`<renderer_key>__…`) inside `<section class="section section--<key> <key>">`.
 * A key not listed here renders as the generic section.
 */
export const BUILT_IN_SECTIONS: ReadonlyMap<string, BuiltInSection> = new Map([
  ['hero', hero],
  ['image-with-text', imageWithText],
  ['rich-text', richText],
  ['newsletter', newsletter],
  ['main-product', mainProduct],
  ['main-collection', mainCollection],
  ['main-cart', mainCart],
  ['main-page', mainPage],
  ['main-blog', mainBlog],
  ['featured-collection', featuredCollection],
  ['featured-products', featuredCollection],
]);
