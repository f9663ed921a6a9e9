import { expect } from 'chai';
import { html, joinMarkup, raw, safeHref } from '../../src/html.js';
import { useTestApp } from '../helpers/app.js';

/** The page toolkit (docs/pages.md): the `html` tag, and a page of a `pages()` list over HTTP. */
describe('Pages: the html tag and a declared page list', () => {
  const { app } = useTestApp('pages_toolkit');

  it('escapes interpolated text, in text and in quoted attributes, and keeps markup as it is', () => {
    const attack = '"><script>alert(1)</script>';
    expect(html`<p>${attack}</p>`.html).to.equal('<p>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(html`<input value="${attack}">`.html).to.equal('<input value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">');
    expect(html`<a title='${"it's"}'>x</a>`.html).to.equal("<a title='it&#39;s'>x</a>");
    // Markup (the tag's own, or raw constant markup) is kept; arrays join; nothing for null, undefined and false.
    const item = (s: string) => html`<li>${s}</li>`;
    expect(html`<ul>${['a<b', 'c&d'].map(item)}</ul>`.html).to.equal('<ul><li>a&lt;b</li><li>c&amp;d</li></ul>');
    expect(html`<div>${raw('<hr>')}${null}${undefined}${false}${0}</div>`.html).to.equal('<div><hr>0</div>');
    expect(joinMarkup([html`<b>1</b>`, '<i>']).html).to.equal('<b>1</b>&lt;i&gt;');
    // A string is text however it looks: an object with an `html` field is no markup either.
    expect(html`${'<b>bold</b>'}`.html).to.equal('&lt;b&gt;bold&lt;/b&gt;');
  });

  it('lets a link point only at an http(s) URL or a site path (safeHref)', () => {
    for (const bad of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<b>x</b>',
      '//evil.example/x',
      'vbscript:x',
      42,
      null,
    ])
      expect(safeHref(bad), String(bad)).to.equal(null);
    expect(safeHref('/collections/all')).to.equal('/collections/all');
    expect(safeHref('https://example.com/a?b=1')).to.equal('https://example.com/a?b=1');
    const href = 'javascript:alert(1)';
    expect(html`<a href="${safeHref(href) ?? '#'}">x</a>`.html).to.equal('<a href="#">x</a>');
  });

  it('answers a page with its headers, keeps what was typed escaped at its field, and answers a method the address has no page for as a 405 page', async () => {
    const pageHeaders = (res: Response) => {
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).to.include('no-store');
      expect(res.headers.get('content-security-policy')).to.include("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).to.equal('DENY');
      expect(res.headers.get('referrer-policy')).to.be.a('string');
    };
    const form = await fetch(new URL('/login', app.url), { headers: { accept: 'text/html' } });
    expect(form.status).to.equal(200);
    pageHeaders(form);
    const cookie = form.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const token = /name="csrf_token" value="([^"]+)"/.exec(await form.text())![1]!;

    const attack = '"><script>alert(1)</script>';
    const sent = await fetch(new URL('/login', app.url), {
      method: 'POST',
      headers: { accept: 'text/html', cookie, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ csrf_token: token, email: attack, password: 'x' }).toString(),
      redirect: 'manual',
    });
    expect(sent.status).to.equal(400);
    pageHeaders(sent);
    const page = await sent.text();
    expect(page).to.include('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(page).to.not.include('<script>alert(1)');
    expect(page).to.match(/aria-invalid="true"/);

    // A form's address asked for with GET: a 405 page with Allow.
    const wrong = await fetch(new URL('/login/code', app.url), { headers: { accept: 'text/html' } });
    expect(wrong.status).to.equal(405);
    expect(wrong.headers.get('allow')).to.equal('POST');
    pageHeaders(wrong);
    expect(await wrong.text()).to.include('<!doctype html>');
  });
});
