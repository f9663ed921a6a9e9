import { expect } from 'chai';
import { unrenderedContent } from '../../../src/themes/bundle/rules/unrendered-content.js';
import { findings } from './run-rule.js';

describe('bundle rule unrendered_content (a warning)', () => {
  it('does not block', () => expect(unrenderedContent.blocking).to.equal(false));

  it('finds nothing when every section and block is in its order', () => expect(findings(unrenderedContent)).to.deep.equal([]));

  it('warns about a section left out of its template order and a block left out of block_order', () => {
    const found = findings(unrenderedContent, (b) => {
      b.templates.home.order = b.templates.home.order.filter((id: string) => id !== 'story');
      b.templates.home.sections.hero.block_order = ['heading', 'text'];
    });
    expect(found).to.deep.equal([
      'templates.home.sections.hero.blocks.button: is not in templates.home.sections.hero.block_order, so it is never rendered',
      'templates.home.sections.story: is not in templates.home.order, so it is never rendered',
    ]);
  });
});
