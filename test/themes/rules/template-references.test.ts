import { expect } from 'chai';
import { templateReferences } from '../../../src/themes/bundle/rules/template-references.js';
import { findings } from './run-rule.js';

describe('bundle rule template_references (spec 7, row by row)', () => {
  it('finds nothing in the fixtures', () => {
    expect(findings(templateReferences)).to.deep.equal([]);
    expect(findings(templateReferences, () => {}, 'ember-liquid')).to.deep.equal([]);
  });

  it('a template order entry naming a missing section id: template.order, naming the template and the id', () => {
    expect(findings(templateReferences, (b) => b.templates.home.order.push('hero-2'))).to.deep.equal([
      'template.order: templates.home.order names "hero-2", which is not a section of the home template',
    ]);
  });

  it('a section block_order entry naming a missing block id: sections.<sectionId>.block_order', () => {
    expect(findings(templateReferences, (b) => b.templates.product.sections.main.block_order.push('sku'))).to.deep.equal([
      'sections.main.block_order: templates.product.sections.main.block_order (product template) names "sku", which is not a block of that section',
    ]);
  });

  it('a template section type with no section definition: templates.<templateKey>.sections.<sectionId>.type', () => {
    expect(findings(templateReferences, (b) => (b.templates.home.sections.featured.type = 'carousel'))).to.deep.equal([
      'templates.home.sections.featured.type: names section type "carousel", which has no definition in sections',
    ]);
  });

  it('a template block type with no block definition: templates.<templateKey>.sections.<sectionId>.blocks.<blockId>.type', () => {
    expect(findings(templateReferences, (b) => (b.templates.home.sections.hero.blocks.heading.type = 'countdown'))).to.deep.equal([
      'templates.home.sections.hero.blocks.heading.type: names block type "countdown", which has no definition in blocks',
    ]);
  });

  it("a template block type outside the section's non-empty block_types, and an empty block_types skips that check", () => {
    const outside = (b: any) => (b.templates.product.sections.main.blocks.title.type = 'email-form');
    expect(findings(templateReferences, outside)).to.deep.equal([
      'templates.product.sections.main.blocks.title.type: block type "email-form" is not one section "main-product" accepts (block_types: product-title, product-price, variant-picker, quantity-selector, buy-buttons, product-description, text)',
    ]);
    expect(
      findings(templateReferences, (b) => {
        outside(b);
        b.sections['main-product'].block_types = [];
      }),
    ).to.deep.equal([]);
  });

  it('a section used on a template it is not enabled on', () => {
    const [found] = findings(templateReferences, (b) => (b.sections.hero.enabled_on = ['product']));
    expect(found).to.equal('templates.home.sections.hero.type: section "hero" is not enabled on the home template (enabled_on: product)');
  });

  it('leaves app blocks to app_blocks', () => {
    expect(findings(templateReferences, (b) => (b.templates.home.sections.hero.blocks.heading.type = '@app/Bad'))).to.deep.equal([]);
  });
});
