import { html } from '../../html.js';
import { storePath, type StorePage } from '../request.js';

/** The Content section's parts, each a tab: its key, label and path under the store. */
const TABS = [
  { key: 'pages', label: 'Pages', path: '/content' },
  { key: 'articles', label: 'Blog', path: '/content/articles' },
  { key: 'menu', label: 'Main menu', path: '/content/menu' },
] as const;

export type ContentTab = (typeof TABS)[number]['key'];

/** The tabs of the Content section (docs/admin.md, Content), the current one as text. */
export const contentTabs = (s: StorePage, current: ContentTab) =>
  html`<p class="actions">
    ${TABS.map((t) => (t.key === current ? html`<strong>${t.label}</strong>` : html`<a href="${storePath(s.store, t.path)}">${t.label}</a>`))}
  </p>`;
