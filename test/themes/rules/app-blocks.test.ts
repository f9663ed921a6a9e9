import { expect } from 'chai';
import { appBlocks } from '../../../src/themes/bundle/rules/app-blocks.js';
import { findings } from './run-rule.js';

const at = 'templates.product.sections.main.blocks.app';
const withAppBlock =
  (block: unknown, section = 'main') =>
  (b: any) => {
    b.templates.product.sections[section].blocks = { ...b.templates.product.sections[section].blocks, app: block };
  };

describe('bundle rule app_blocks', () => {
  it('takes @app and @app/<handle>/<block> blocks with valid settings in a section that accepts them', () => {
    expect(findings(appBlocks)).to.deep.equal([]);
    const settings = { heading: 'Hi', body: 'Text', cta_label: 'Go', cta_href: '/pages/x', iframe_url: 'https://apps.example.com/w', kind: 'inline' };
    for (const type of ['@app', '@app/reviews/stars']) expect(findings(appBlocks, withAppBlock({ type, settings }))).to.deep.equal([]);
  });

  it('refuses a malformed app block type, and an app block in a section without accepts_app_blocks', () => {
    expect(findings(appBlocks, withAppBlock({ type: '@app/reviews' }))).to.deep.equal([
      `${at}.type: "@app/reviews" is not an app block type: "@app" or "@app/<app handle>/<block>", each lowercase kebab-case of at most 64 characters`,
    ]);
    expect(findings(appBlocks, withAppBlock({ type: '@app/reviews/stars' }, 'related'))).to.deep.equal([
      'templates.product.sections.related.blocks.app.type: app blocks are only allowed in sections with accepts_app_blocks (section "featured-collection" does not accept them)',
    ]);
  });

  it('checks its settings: known fields only, text lengths, https links and iframes, the kind, storable keys', () => {
    const found = findings(
      appBlocks,
      withAppBlock({
        type: '@app',
        settings: {
          body: 'x'.repeat(2001),
          cta_label: 5,
          cta_href: 'http://apps.example.com/',
          iframe_url: '/pages/x',
          kind: 'modal',
          script: 'x',
          $where: 'x',
        },
      }),
    );
    expect(found.map((f) => f.slice(0, f.indexOf(': ')))).to.deep.equal(
      ['$where', 'body', 'cta_label', 'cta_href', 'iframe_url', 'kind', 'script'].map((k) => `${at}.settings.${k}`),
    );
  });
});
