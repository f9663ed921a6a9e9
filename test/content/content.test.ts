import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ObjectId } from 'mongodb';
import { findPublishedArticle, findPublishedPage, listPublishedArticles, storeMenu } from '../../src/content/index.js';
import type { Platform } from '../../src/platform.js';
import { useTestApp } from '../helpers/app.js';
import { givenPublishedApp, installApp } from '../helpers/apps.js';
import { givenAppAndCustomer } from '../helpers/callers.js';
import { givenMerchant, givenMerchantWithStore, type As, type GivenMerchantWithStore } from '../helpers/factories.js';

const OPERATOR = 'content-operator@example.com';
const PAGE_FIELDS = ['id', 'title', 'handle', 'body_html', 'published', 'created_at', 'updated_at'];
const ARTICLE_FIELDS = ['id', 'blog_handle', 'title', 'handle', 'body_html', 'author', 'published', 'published_at', 'created_at', 'updated_at'];
const MENU_FIELDS = ['handle', 'title', 'items', 'created_at', 'updated_at'];
const HOSTILE_HTML =
  '<p onclick="steal()">Hello <a href="javascript:alert(1)">there</a> <a href="https://example.com">ok</a></p><script>alert(1)</script><img src="x" onerror="alert(1)">';

/**
 * The content domain (docs/content.md): pages, the blog's articles and navigation menus, through
 * the real HTTP API; the reads the shop's pages use; and docs/content.md's curl walkthrough.
 */
describe('Content: pages, articles and menus (/v1/pages, /v1/articles, /v1/menus)', () => {
  const { app, api } = useTestApp('content', { OPERATOR_EMAILS: OPERATOR });
  let platform: Platform;
  let operatorToken: string;
  before(async () => {
    platform = app.platform;
    operatorToken = (await givenMerchant(api, { email: OPERATOR })).token;
  });

  /** Every content document of the store, in full: what "changes nothing" compares. */
  async function contentOf(storeId: string) {
    const store_id = new ObjectId(storeId);
    const read = (name: string) => platform.db.collection(name).find({ store_id }).sort({ _id: 1 }).toArray();
    return { pages: await read('pages'), articles: await read('articles'), menus: await read('menus') };
  }
  const eventOf = (key: string) => platform.db.collection('events').findOne({ idempotency_key: key });

  async function givenPage(as: As, body: Record<string, unknown>) {
    const res = await api.post('/v1/pages', body, as);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data;
  }
  async function givenArticle(as: As, body: Record<string, unknown>) {
    const res = await api.post('/v1/articles', body, as);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data;
  }

  describe('pages', () => {
    it('creates a page with defaults, handle from the title, and records page.created; reads it back', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const res = await api.post('/v1/pages', { title: 'About Us', body_html: '<p>We make <strong>things</strong>.</p>' }, as);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data).to.have.all.keys(...PAGE_FIELDS);
      expect(res.body.data).to.include({ title: 'About Us', handle: 'about-us', body_html: '<p>We make <strong>things</strong>.</p>', published: true });
      expect(res.body.data.created_at).to.equal(res.body.data.updated_at);
      const event = await eventOf(`page.created:${res.body.data.id}`);
      expect(event?.type).to.equal('page.created');
      expect(event?.store_id.toHexString()).to.equal(store.id);
      expect(event?.payload).to.deep.equal({ page: res.body.data });
      expect((await api.get(`/v1/pages/${res.body.data.id}`, as)).body.data).to.deep.equal(res.body.data);
      const bare = await givenPage(as, { title: 'Contact' });
      expect(bare).to.include({ handle: 'contact', body_html: '', published: true });
    });

    it('makes unique handles from titles (accents folded, -2, -3, a fallback for titles without latin letters or digits)', async () => {
      const { as } = await givenMerchantWithStore(api);
      expect((await givenPage(as, { title: 'About Us!' })).handle).to.equal('about-us');
      expect((await givenPage(as, { title: 'about   us' })).handle).to.equal('about-us-2');
      expect((await givenPage(as, { title: 'About us?' })).handle).to.equal('about-us-3');
      expect((await givenPage(as, { title: 'Über uns — Café' })).handle).to.equal('uber-uns-cafe');
      const japanese = await givenPage(as, { title: '私たちについて' });
      expect(japanese).to.include({ title: '私たちについて', handle: 'page' });
      expect((await givenPage(as, { title: '🎉🎉' })).handle).to.equal('page-2');
      expect((await givenPage(as, { title: 'Constructor', handle: 'constructor' })).handle).to.equal('constructor');
      expect((await givenPage(as, { title: 'Proto', handle: 'proto' })).handle).to.equal('proto');
    });

    it('refuses a handle the store already uses with 409 handle_taken, on create and on update, and changes nothing; another store may use it', async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      await givenPage(a.as, { title: 'About', handle: 'about' });
      const other = await givenPage(a.as, { title: 'Contact', handle: 'contact' });
      const before = await contentOf(a.store.id);
      const dup = await api.post('/v1/pages', { title: 'Another about', handle: 'about' }, a.as);
      expect([dup.status, dup.body.error.code]).to.deep.equal([409, 'handle_taken']);
      const renamed = await api.patch(`/v1/pages/${other.id}`, { handle: 'about', title: 'Renamed' }, a.as);
      expect([renamed.status, renamed.body.error.code]).to.deep.equal([409, 'handle_taken']);
      expect(await contentOf(a.store.id)).to.deep.equal(before);
      expect((await givenPage(b.as, { title: 'About', handle: 'about' })).handle).to.equal('about');
      // Keeping its own handle is no conflict.
      const same = await api.patch(`/v1/pages/${other.id}`, { handle: 'contact', title: 'Contact us' }, a.as);
      expect(same.status).to.equal(200);
    });

    it('sanitises body_html on create and on update: scripts, event handlers and javascript: links are dropped', async () => {
      const { as } = await givenMerchantWithStore(api);
      const page = await givenPage(as, { title: 'Hostile', body_html: HOSTILE_HTML });
      for (const html of [page.body_html, (await api.get(`/v1/pages/${page.id}`, as)).body.data.body_html]) {
        expect(html).to.not.match(/<script|onclick|onerror|javascript:/i);
        expect(html).to.include('<a href="https://example.com" rel="noopener noreferrer">ok</a>');
        expect(html).to.include('Hello');
      }
      const updated = await api.patch(
        `/v1/pages/${page.id}`,
        { body_html: '<h2>Hi</h2><iframe src="https://evil.example"></iframe><a href="JaVaScRiPt:x()">x</a>' },
        as,
      );
      expect(updated.status).to.equal(200);
      expect(updated.body.data.body_html).to.not.match(/iframe|javascript/i);
      expect(updated.body.data.body_html).to.include('<h2>Hi</h2>');
    });

    it('updates the given fields (PATCH), records page.updated, and deletes (page.deleted, then 404)', async () => {
      const { as } = await givenMerchantWithStore(api);
      const page = await givenPage(as, { title: 'Shipping', body_html: '<p>Fast</p>' });
      await new Promise((r) => setTimeout(r, 5));
      const res = await api.patch(`/v1/pages/${page.id}`, { title: 'Shipping policy', published: false }, as);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.include({ id: page.id, title: 'Shipping policy', handle: 'shipping', body_html: '<p>Fast</p>', published: false });
      expect(res.body.data.created_at).to.equal(page.created_at);
      expect(res.body.data.updated_at > page.updated_at).to.equal(true);
      expect((await eventOf(`page.updated:${page.id}:v2`))?.payload).to.deep.equal({ page: res.body.data });
      const removed = await api.delete(`/v1/pages/${page.id}`, as);
      expect(removed.status).to.equal(204);
      expect((await eventOf(`page.deleted:${page.id}`))?.payload).to.deep.equal({ page: { id: page.id, handle: 'shipping' } });
      expect((await api.get(`/v1/pages/${page.id}`, as)).status).to.equal(404);
      expect((await api.delete(`/v1/pages/${page.id}`, as)).status).to.equal(404);
      expect((await api.patch(`/v1/pages/${page.id}`, { title: 'x' }, as)).status).to.equal(404);
      for (const id of ['nope', 'constructor', '__proto__', 'x'.repeat(300)]) {
        expect((await api.get(`/v1/pages/${id}`, as)).status, id).to.equal(404);
        expect((await api.patch(`/v1/pages/${id}`, { title: 'x' }, as)).status, id).to.equal(404);
        expect((await api.delete(`/v1/pages/${id}`, as)).status, id).to.equal(404);
      }
      // The handle is free again.
      expect((await givenPage(as, { title: 'Shipping' })).handle).to.equal('shipping');
    });

    it('refuses bad input with 400 invalid_input and changes nothing; never a 500', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const page = await givenPage(as, { title: 'Kept', body_html: '<p>kept</p>' });
      const before = await contentOf(store.id);
      const creates: [unknown, RegExp][] = [
        [{}, /body\.title/],
        [{ handle: 'constructor' }, /body\.title/],
        [{ title: '' }, /body\.title/],
        [{ title: '   ' }, /body\.title/],
        [{ title: 'x'.repeat(256) }, /body\.title/],
        [{ title: 42 }, /body\.title/],
        [{ title: 'Ok', handle: 'Not A Handle' }, /body\.handle: must be lowercase/],
        [{ title: 'Ok', handle: '-x' }, /body\.handle/],
        [{ title: 'Ok', handle: '' }, /body\.handle/],
        [{ title: 'Ok', handle: 'a'.repeat(256) }, /body\.handle/],
        [{ title: 'Ok', handle: { $gt: '' } }, /body\.handle/],
        [{ title: 'Ok', body_html: 'x'.repeat(65_536) }, /body\.body_html/],
        [{ title: 'Ok', body_html: null }, /body\.body_html/],
        [{ title: 'Ok', published: 'yes' }, /body\.published/],
        [{ title: 'Ok', id: new ObjectId().toHexString() }, /Unrecognized key/],
        [{ title: 'Ok', constructor: 'x' }, /Unrecognized key/],
      ];
      for (const [body, detail] of creates) {
        const res = await api.post('/v1/pages', body, as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
        expect(res.body.error.details.join('\n'), JSON.stringify(body)).to.match(detail);
      }
      const updates: [unknown, RegExp][] = [
        [{}, /give at least one field/],
        [{ title: '' }, /body\.title/],
        [{ handle: 'UPPER' }, /body\.handle/],
        [{ published: null }, /body\.published/],
        [{ body_html: 'x'.repeat(65_536) }, /body\.body_html/],
        [{ created_at: '2020-01-01T00:00:00Z' }, /Unrecognized key/],
      ];
      for (const [body, detail] of updates) {
        const res = await api.patch(`/v1/pages/${page.id}`, body, as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
        expect(res.body.error.details.join('\n'), JSON.stringify(body)).to.match(detail);
      }
      for (const body of [[], '"title"', 'null', '{"title":"Ok","__proto__":{"x":1}}', '{"title":"Ok","constructor":{"prototype":{}}}']) {
        const res = await api.post('/v1/pages', body, as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code, JSON.stringify(body)).to.be.oneOf(['invalid_input', 'invalid_json']);
      }
      const huge = await api.post('/v1/pages', { title: 'Huge', body_html: 'x'.repeat(2 * 1024 * 1024) }, as);
      expect([huge.status, huge.body.error.code]).to.deep.equal([413, 'payload_too_large']);
      const notJson = await api.post('/v1/pages', '{"title":', as);
      expect(notJson.status).to.equal(400);
      expect((await api.get('/v1/pages?limit=0', as)).status).to.equal(400);
      expect((await api.get('/v1/pages?cursor=nope', as)).status).to.equal(400);
      expect((await api.get('/v1/pages?published=yes', as)).status).to.equal(400);
      expect((await api.get('/v1/pages?constructor=1', as)).status).to.equal(400);
      expect(await contentOf(store.id)).to.deep.equal(before);
    });

    it('lists a page at a time in creation order, optionally only the published or the unpublished ones', async () => {
      const { as } = await givenMerchantWithStore(api);
      const made = [];
      for (let i = 1; i <= 5; i++) made.push(await givenPage(as, { title: `Page ${i}`, published: i % 2 === 1 }));
      const seen: string[] = [];
      let cursor: string | null = null;
      let rounds = 0;
      do {
        const res: { status: number; body: any } = await api.get(`/v1/pages?limit=2${cursor ? `&cursor=${cursor}` : ''}`, as);
        expect(res.status).to.equal(200);
        expect(res.body.data.length).to.be.at.most(2);
        seen.push(...res.body.data.map((p: { id: string }) => p.id));
        cursor = res.body.page.next_cursor;
        rounds++;
      } while (cursor);
      expect(rounds).to.equal(3);
      expect(seen).to.deep.equal(made.map((p) => p.id));
      const published = (await api.get('/v1/pages?published=true', as)).body.data.map((p: { title: string }) => p.title);
      expect(published).to.deep.equal(['Page 1', 'Page 3', 'Page 5']);
      const drafts = (await api.get('/v1/pages?published=false', as)).body.data.map((p: { title: string }) => p.title);
      expect(drafts).to.deep.equal(['Page 2', 'Page 4']);
    });

    it('replays a retried Idempotency-Key and makes one page', async () => {
      const { as } = await givenMerchantWithStore(api);
      const headers = { 'idempotency-key': 'page-once' };
      const first = await api.post('/v1/pages', { title: 'Once' }, { ...as, headers });
      const second = await api.post('/v1/pages', { title: 'Once' }, { ...as, headers });
      expect([first.status, second.status]).to.deep.equal([201, 201]);
      expect(second.body).to.deep.equal(first.body);
      expect((await api.get('/v1/pages', as)).body.data).to.have.length(1);
    });
  });

  describe('articles', () => {
    it('creates an article of the news blog with defaults; published ones get published_at; records article.created', async () => {
      const { as } = await givenMerchantWithStore(api);
      const before = Date.now();
      const res = await api.post('/v1/articles', { title: 'Hello, world', body_html: '<p>First post</p><script>x()</script>', author: 'Ada' }, as);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const article = res.body.data;
      expect(article).to.have.all.keys(...ARTICLE_FIELDS);
      expect(article).to.include({
        blog_handle: 'news',
        title: 'Hello, world',
        handle: 'hello-world',
        body_html: '<p>First post</p>',
        author: 'Ada',
        published: true,
      });
      expect(Date.parse(article.published_at)).to.be.within(before - 1000, Date.now() + 1000);
      expect((await eventOf(`article.created:${article.id}`))?.payload).to.deep.equal({ article });
      const draft = await givenArticle(as, { title: 'Draft', published: false });
      expect(draft).to.include({ author: null, published: false, published_at: null, body_html: '' });
      const dated = await givenArticle(as, { title: 'From the archive', published_at: '2020-05-01T10:00:00+02:00' });
      expect(dated.published_at).to.equal('2020-05-01T08:00:00.000Z');
      expect((await api.get(`/v1/articles/${article.id}`, as)).body.data).to.deep.equal(article);
    });

    it('publishing a draft dates it; updates, handle conflicts and deletes as pages', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const draft = await givenArticle(as, { title: 'Soon', published: false });
      const other = await givenArticle(as, { title: 'Other' });
      const published = await api.patch(`/v1/articles/${draft.id}`, { published: true, author: 'Grace', body_html: '<a href="javascript:x()">x</a>y' }, as);
      expect(published.status, JSON.stringify(published.body)).to.equal(200);
      expect(published.body.data).to.include({ published: true, author: 'Grace', body_html: '<a rel="noopener noreferrer">x</a>y' });
      expect(published.body.data.published_at).to.be.a('string');
      expect((await eventOf(`article.updated:${draft.id}:v2`))?.payload).to.deep.equal({ article: published.body.data });
      // Unpublishing keeps the date it was published; the shop no longer shows it.
      const unpublished = await api.patch(`/v1/articles/${draft.id}`, { published: false }, as);
      expect(unpublished.body.data).to.include({ published: false, published_at: published.body.data.published_at });
      const noAuthor = await api.patch(`/v1/articles/${draft.id}`, { author: null }, as);
      expect(noAuthor.body.data.author).to.equal(null);

      const before = await contentOf(store.id);
      const dup = await api.patch(`/v1/articles/${other.id}`, { handle: 'soon' }, as);
      expect([dup.status, dup.body.error.code]).to.deep.equal([409, 'handle_taken']);
      const dupCreate = await api.post('/v1/articles', { title: 'x', handle: 'other' }, as);
      expect([dupCreate.status, dupCreate.body.error.code]).to.deep.equal([409, 'handle_taken']);
      for (const body of [
        { title: 'x', author: '' },
        { title: 'x', published_at: '2020-05-01' },
        { title: 'x', published_at: 'yesterday' },
        { title: 'x', blog_handle: 'news' },
      ]) {
        const res = await api.post('/v1/articles', body, as);
        expect([res.status, res.body.error.code], JSON.stringify(body)).to.deep.equal([400, 'invalid_input']);
      }
      expect(await contentOf(store.id)).to.deep.equal(before);

      expect((await api.delete(`/v1/articles/${other.id}`, as)).status).to.equal(204);
      expect((await eventOf(`article.deleted:${other.id}`))?.payload).to.deep.equal({ article: { id: other.id, handle: 'other' } });
      expect((await api.get(`/v1/articles/${other.id}`, as)).status).to.equal(404);
      const list = (await api.get('/v1/articles?limit=1', as)).body;
      expect(list.data.map((a: { id: string }) => a.id)).to.deep.equal([draft.id]);
      expect(list.page.next_cursor).to.equal(null);
    });
  });

  describe('menus', () => {
    it('PUT creates and replaces a menu by handle (menu.created, menu.updated); GET, the list and DELETE (menu.deleted)', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const items = [
        { title: 'Home', url: '/' },
        { title: 'Shop', url: '/collections/all' },
        { title: 'About', url: '/pages/about?ref=menu#team' },
        { title: 'Blog', url: '/blogs/news' },
        { title: 'Instagram', url: 'https://instagram.com/ada-goods' },
        { title: 'Plain', url: 'http://example.com' },
      ];
      const created = await api.put('/v1/menus/main-menu', { title: 'Main menu', items }, as);
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body.data).to.have.all.keys(...MENU_FIELDS);
      expect(created.body.data).to.deep.include({ handle: 'main-menu', title: 'Main menu', items });
      const menuDoc = await platform.db.collection('menus').findOne({ store_id: new ObjectId(store.id), handle: 'main-menu' });
      expect((await eventOf(`menu.created:${menuDoc!._id.toHexString()}`))?.payload).to.deep.equal({ menu: created.body.data });
      expect((await api.get('/v1/menus/main-menu', as)).body.data).to.deep.equal(created.body.data);

      const replaced = await api.put('/v1/menus/main-menu', { title: 'Main', items: [{ title: 'Home', url: '/' }] }, as);
      expect(replaced.status).to.equal(200);
      expect(replaced.body.data).to.deep.include({ title: 'Main', items: [{ title: 'Home', url: '/' }], created_at: created.body.data.created_at });
      expect((await eventOf(`menu.updated:${menuDoc!._id.toHexString()}:v2`))?.payload).to.deep.equal({ menu: replaced.body.data });

      const footer = await api.put('/v1/menus/footer', { title: 'Footer', items: [] }, as);
      expect(footer.body.data.items).to.deep.equal([]);
      const list = await api.get('/v1/menus', as);
      expect(list.body.data.map((m: { handle: string }) => m.handle)).to.deep.equal(['main-menu', 'footer']);
      const paged = await api.get('/v1/menus?limit=1', as);
      expect(paged.body.data.map((m: { handle: string }) => m.handle)).to.deep.equal(['main-menu']);
      const next = await api.get(`/v1/menus?limit=1&cursor=${paged.body.page.next_cursor}`, as);
      expect(next.body.data.map((m: { handle: string }) => m.handle)).to.deep.equal(['footer']);

      const footerId = (await platform.db.collection('menus').findOne({ store_id: new ObjectId(store.id), handle: 'footer' }))!._id.toHexString();
      expect((await api.delete('/v1/menus/footer', as)).status).to.equal(204);
      expect((await eventOf(`menu.deleted:${footerId}`))?.payload).to.deep.equal({ menu: { handle: 'footer' } });
      expect((await api.get('/v1/menus/footer', as)).status).to.equal(404);
      expect((await api.delete('/v1/menus/footer', as)).status).to.equal(404);
      for (const handle of ['constructor', '__proto__', 'Not%20A%20Handle', 'x'.repeat(300), '%00', 'a%00b', '%C3%A9t%C3%A9', 'MAIN-MENU']) {
        expect((await api.get(`/v1/menus/${handle}`, as)).status, handle).to.equal(404);
        expect((await api.delete(`/v1/menus/${handle}`, as)).status, handle).to.equal(404);
      }
      // A menu named like an Object member is just a menu.
      expect((await api.put('/v1/menus/constructor', { title: 'C', items: [] }, as)).status).to.equal(200);
      expect((await api.get('/v1/menus/constructor', as)).body.data.title).to.equal('C');
    });

    it('refuses links that are not a path on the store or an http(s) URL, more than 50 links and bad handles, with 400, changing nothing', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      await api.put('/v1/menus/main-menu', { title: 'Main', items: [{ title: 'Home', url: '/' }] }, as);
      const before = await contentOf(store.id);
      const badUrls = [
        'javascript:alert(1)',
        'JavaScript:alert(1)',
        ' javascript:alert(1)',
        'java\tscript:alert(1)',
        'data:text/html,<script>alert(1)</script>',
        'vbscript:msgbox(1)',
        'mailto:ada@example.com',
        'ftp://example.com/file',
        '//evil.example.com',
        '/\\evil.example.com',
        '\\\\evil.example.com',
        'https://',
        'https:///path',
        'http:evil.example.com',
        'pages/about',
        'about',
        '',
        '/a b',
        '/line\nbreak',
        `/${'x'.repeat(2048)}`,
      ];
      for (const url of badUrls) {
        const res = await api.put('/v1/menus/main-menu', { title: 'Main', items: [{ title: 'Bad', url }] }, as);
        expect(res.status, url).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
        expect(res.body.error.details.join('\n'), url).to.match(/body\.items\.0\.url/);
      }
      const tooMany = Array.from({ length: 51 }, (_, i) => ({ title: `Link ${i}`, url: `/pages/${i}` }));
      const cases: [string, unknown, RegExp][] = [
        ['main-menu', { title: 'Main', items: tooMany }, /body\.items: must have at most 50 items/],
        ['main-menu', { items: [] }, /body\.title/],
        ['main-menu', { title: 'Main' }, /body\.items/],
        ['main-menu', { title: 'Main', items: [{ title: '', url: '/' }] }, /body\.items\.0\.title/],
        ['main-menu', { title: 'Main', items: [{ title: 'x'.repeat(256), url: '/' }] }, /body\.items\.0\.title/],
        ['main-menu', { title: 'Main', items: [{ title: 'Home', url: '/', children: [] }] }, /Unrecognized key/],
        ['main-menu', { title: 'Main', items: [{ url: '/' }] }, /body\.items\.0\.title/],
        ['main-menu', { title: 'Main', items: 'nope' }, /body\.items/],
        ['Main_Menu', { title: 'Main', items: [] }, /params\.handle/],
        ['-menu', { title: 'Main', items: [] }, /params\.handle/],
        ['x'.repeat(256), { title: 'Main', items: [] }, /params\.handle/],
      ];
      for (const [handle, body, detail] of cases) {
        const res = await api.put(`/v1/menus/${handle}`, body, as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
        expect(res.body.error.details.join('\n'), JSON.stringify(body)).to.match(detail);
      }
      expect(await contentOf(store.id)).to.deep.equal(before);
      // Fifty is allowed.
      expect((await api.put('/v1/menus/main-menu', { title: 'Main', items: tooMany.slice(0, 50) }, as)).status).to.equal(200);
    });
  });

  describe('ownership', () => {
    let a: GivenMerchantWithStore;
    let b: GivenMerchantWithStore;
    let page: { id: string };
    let article: { id: string };
    before(async () => {
      a = await givenMerchantWithStore(api);
      b = await givenMerchantWithStore(api);
      page = await givenPage(a.as, { title: 'About' });
      article = await givenArticle(a.as, { title: 'News' });
      await api.put('/v1/menus/main-menu', { title: 'Main', items: [{ title: 'Home', url: '/' }] }, a.as);
    });

    /** Every route, as `as` would call it on store A's content. */
    const calls = (as: { token?: string; storeId?: string }) => [
      () => api.get('/v1/pages', as),
      () => api.post('/v1/pages', { title: 'Intruder' }, as),
      () => api.get(`/v1/pages/${page.id}`, as),
      () => api.patch(`/v1/pages/${page.id}`, { title: 'Owned' }, as),
      () => api.delete(`/v1/pages/${page.id}`, as),
      () => api.get('/v1/articles', as),
      () => api.post('/v1/articles', { title: 'Intruder' }, as),
      () => api.get(`/v1/articles/${article.id}`, as),
      () => api.patch(`/v1/articles/${article.id}`, { title: 'Owned' }, as),
      () => api.delete(`/v1/articles/${article.id}`, as),
      () => api.get('/v1/menus', as),
      () => api.get('/v1/menus/main-menu', as),
      () => api.put('/v1/menus/main-menu', { title: 'Owned', items: [] }, as),
      () => api.delete('/v1/menus/main-menu', as),
    ];

    it("another merchant gets nothing of the store's content: 403 with this store's id, 404 or its own empty lists with its own", async () => {
      const before = await contentOf(a.store.id);
      for (const call of calls({ token: b.merchant.token, storeId: a.store.id })) {
        const res = await call();
        expect([res.status, res.body.error.code]).to.deep.equal([403, 'store_forbidden']);
      }
      expect((await api.get(`/v1/pages/${page.id}`, b.as)).status).to.equal(404);
      expect((await api.patch(`/v1/pages/${page.id}`, { title: 'Owned' }, b.as)).status).to.equal(404);
      expect((await api.delete(`/v1/pages/${page.id}`, b.as)).status).to.equal(404);
      expect((await api.get(`/v1/articles/${article.id}`, b.as)).status).to.equal(404);
      expect((await api.patch(`/v1/articles/${article.id}`, { title: 'Owned' }, b.as)).status).to.equal(404);
      expect((await api.delete(`/v1/articles/${article.id}`, b.as)).status).to.equal(404);
      expect((await api.get('/v1/menus/main-menu', b.as)).status).to.equal(404);
      expect((await api.delete('/v1/menus/main-menu', b.as)).status).to.equal(404);
      expect((await api.get('/v1/pages', b.as)).body.data).to.deep.equal([]);
      expect((await api.get('/v1/articles', b.as)).body.data).to.deep.equal([]);
      expect((await api.get('/v1/menus', b.as)).body.data).to.deep.equal([]);
      // B's own main menu and about page are B's: A's stay as they were.
      expect((await api.put('/v1/menus/main-menu', { title: 'B', items: [] }, b.as)).status).to.equal(200);
      expect((await givenPage(b.as, { title: 'About' })).handle).to.equal('about');
      expect(await contentOf(a.store.id)).to.deep.equal(before);
    });

    it('an app needs read_content to read and write_content to write; a customer, no token, or an app of another store get nothing', async () => {
      const before = await contentOf(a.store.id);
      const { appToken: productsOnly, customerToken } = await givenAppAndCustomer(api, operatorToken, a);
      for (const call of calls({ token: productsOnly })) {
        const res = await call();
        expect([res.status, res.body.error.code]).to.deep.equal([403, 'insufficient_scope']);
      }
      for (const call of [...calls({ token: customerToken, storeId: a.store.id }), ...calls({})]) {
        expect((await call()).status).to.equal(401);
      }
      const reader = await installApp(api, await givenPublishedApp(api, operatorToken, { scopes: ['read_content'] }), a, { scopes: ['read_content'] });
      const readerCalls = calls({ token: reader.token });
      for (const [i, call] of readerCalls.entries()) {
        const res = await call();
        const isRead = [0, 2, 5, 7, 10, 11].includes(i);
        expect(res.status, String(i)).to.equal(isRead ? 200 : 403);
        if (!isRead) expect(res.body.error.code).to.equal('insufficient_scope');
      }
      expect(await contentOf(a.store.id)).to.deep.equal(before);

      const writerApp = await givenPublishedApp(api, operatorToken, { scopes: ['write_content'] });
      const writerOfB = await installApp(api, writerApp, b, { scopes: ['write_content'] });
      expect((await api.get(`/v1/pages/${page.id}`, { token: writerOfB.token })).status).to.equal(404);
      expect((await api.get('/v1/pages', { token: writerOfB.token, storeId: a.store.id })).status).to.equal(403);
      expect(await contentOf(a.store.id)).to.deep.equal(before);

      const writer = await installApp(api, writerApp, a, { scopes: ['write_content'] });
      const made = await api.post('/v1/pages', { title: 'By an app' }, { token: writer.token });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      expect((await api.put('/v1/menus/footer', { title: 'Footer', items: [] }, { token: writer.token })).status).to.equal(200);
      expect((await api.get(`/v1/pages/${made.body.data.id}`, a.as)).body.data.title).to.equal('By an app');
    });
  });

  describe("the shop's reads (findPublishedPage, listPublishedArticles, findPublishedArticle, storeMenu)", () => {
    it('answer only the store’s published content, from its indexes', async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      await givenPage(a.as, { title: 'About', body_html: '<p>About <script>x</script>us</p>' });
      const hidden = await givenPage(a.as, { title: 'Secret', published: false });
      await givenPage(b.as, { title: 'Only B' });
      expect(await findPublishedPage(platform, a.store.id, 'about')).to.deep.equal({ handle: 'about', title: 'About', body_html: '<p>About us</p>' });
      expect(await findPublishedPage(platform, a.store.id, hidden.handle)).to.equal(null);
      expect(await findPublishedPage(platform, a.store.id, 'only-b')).to.equal(null);
      expect(await findPublishedPage(platform, b.store.id, 'about')).to.equal(null);
      for (const handle of ['constructor', '__proto__', '', 'x'.repeat(10_000), '\u0000', 'about\u0000', 'ABOUT', 'été', '$gt']) {
        expect(await findPublishedPage(platform, a.store.id, handle), handle).to.equal(null);
        expect(await findPublishedArticle(platform, a.store.id, handle), handle).to.equal(null);
        expect(await storeMenu(platform, a.store.id, handle), handle).to.equal(null);
      }
      expect(await findPublishedPage(platform, 'not-a-store', 'about')).to.equal(null);
      // Unpublishing hides it from the shop at once.
      const about = (await api.get('/v1/pages', a.as)).body.data.find((p: { handle: string }) => p.handle === 'about');
      await api.patch(`/v1/pages/${about.id}`, { published: false }, a.as);
      expect(await findPublishedPage(platform, a.store.id, 'about')).to.equal(null);

      await givenArticle(a.as, { title: 'Old', published_at: '2024-01-01T00:00:00Z', author: 'Ada' });
      await givenArticle(a.as, { title: 'Draft', published: false });
      await givenArticle(a.as, { title: 'Newest', published_at: '2026-01-01T00:00:00Z' });
      await givenArticle(a.as, { title: 'Middle', published_at: '2025-01-01T00:00:00Z', body_html: '<p>m</p>' });
      await givenArticle(b.as, { title: 'B news' });
      const listed = await listPublishedArticles(platform, a.store.id, 10);
      expect(listed.map((x) => x.title)).to.deep.equal(['Newest', 'Middle', 'Old']);
      expect(listed[1]).to.deep.equal({ handle: 'middle', title: 'Middle', body_html: '<p>m</p>', author: null, published_at: '2025-01-01T00:00:00.000Z' });
      expect(listed[2]!.author).to.equal('Ada');
      expect((await listPublishedArticles(platform, a.store.id, 2)).map((x) => x.title)).to.deep.equal(['Newest', 'Middle']);
      expect(await listPublishedArticles(platform, a.store.id, 0)).to.have.length(1);
      expect(await listPublishedArticles(platform, 'not-a-store', 10)).to.deep.equal([]);
      expect((await findPublishedArticle(platform, a.store.id, 'old'))?.title).to.equal('Old');
      expect(await findPublishedArticle(platform, a.store.id, 'draft')).to.equal(null);
      expect(await findPublishedArticle(platform, a.store.id, 'b-news')).to.equal(null);
      expect(await findPublishedArticle(platform, a.store.id, 'constructor')).to.equal(null);

      expect(await storeMenu(platform, a.store.id, 'main-menu')).to.equal(null);
      await api.put(
        '/v1/menus/main-menu',
        {
          title: 'Main',
          items: [
            { title: 'Home', url: '/' },
            { title: 'About', url: '/pages/about' },
          ],
        },
        a.as,
      );
      expect(await storeMenu(platform, a.store.id, 'main-menu')).to.deep.equal([
        { title: 'Home', url: '/' },
        { title: 'About', url: '/pages/about' },
      ]);
      expect(await storeMenu(platform, b.store.id, 'main-menu')).to.equal(null);
      expect(await storeMenu(platform, a.store.id, 'constructor')).to.equal(null);

      // Each read is one find on a (store_id, …) index the domain declares.
      for (const [name, key] of [
        ['pages', { store_id: 1, handle: 1 }],
        ['articles', { store_id: 1, handle: 1 }],
        ['articles', { store_id: 1, published: 1, published_at: -1, _id: -1 }],
        ['menus', { store_id: 1, handle: 1 }],
      ] as const) {
        const indexes = await platform.db.collection(name).indexes();
        expect(
          indexes.some((i) => JSON.stringify(i.key) === JSON.stringify(key)),
          `${name} ${JSON.stringify(key)}`,
        ).to.equal(true);
      }
    });
  });

  describe('docs/content.md', () => {
    it('its curl examples work when pasted after the README walkthrough (TOKEN and STORE set), in order', async () => {
      const { merchant, store } = await givenMerchantWithStore(api);
      const markdown = readFileSync('docs/content.md', 'utf8');
      const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
      expect(blocks.length).to.be.at.least(10);
      const port = new URL(app.url).port;
      const script = [
        'set -euo pipefail',
        'curl() { command curl --fail-with-body --silent --show-error --max-time 30 "$@"; }',
        ...blocks.map((b) => b.replaceAll('localhost:3000', `127.0.0.1:${port}`)),
      ].join('\n');
      // Asynchronously: the server answering the script runs in this process.
      const child = spawn('bash', ['-c', script], { env: { ...process.env, TOKEN: merchant.token, STORE: store.id } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += String(d)));
      child.stderr.on('data', (d) => (stderr += String(d)));
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(status, `exit ${status}\n--- stdout\n${stdout.slice(-3000)}\n--- stderr\n${stderr.slice(-3000)}`).to.equal(0);
      expect(await findPublishedPage(platform, store.id, 'about')).to.not.equal(null);
      expect(await storeMenu(platform, store.id, 'main-menu')).to.not.equal(null);
      expect(await listPublishedArticles(platform, store.id, 5)).to.have.length.at.least(1);
    });
  });
});
