import { expect } from 'chai';
import { translationReferences } from '../../../src/themes/bundle/rules/translation-references.js';
import { findings } from './run-rule.js';

describe('bundle rule translation_references', () => {
  it('finds nothing in the fixtures', () => {
    expect(findings(translationReferences)).to.deep.equal([]);
    expect(findings(translationReferences, () => {}, 'ember-liquid')).to.deep.equal([]);
  });

  it('every t: reference resolves in the default locale en, names and text values alike', () => {
    expect(findings(translationReferences, (b) => delete b.locales.en.sections.hero.name)).to.deep.equal([
      'sections.hero.name: t:sections.hero.name is not in the default locale en',
    ]);
    expect(
      findings(translationReferences, (b) => (b.templates.home.sections.newsletter.blocks.heading.settings.heading = 't:sections.newsletter.missing')),
    ).to.deep.equal(['templates.home.sections.newsletter.blocks.heading.settings.heading: t:sections.newsletter.missing is not in the default locale en']);
  });

  it('refuses a malformed reference', () => {
    expect(findings(translationReferences, (b) => (b.sections.hero.name = 't:sections..hero'))).to.deep.equal([
      'sections.hero.name: "t:sections..hero" is not a translation reference: "t:" then a dotted key such as t:sections.hero.name',
    ]);
  });

  it('reads app block texts, and leaves out values their field refuses', () => {
    const found = findings(translationReferences, (b) => {
      b.templates.product.sections.main.blocks.app = { type: '@app', settings: { heading: 't:no.such.key', body: `t:${'x'.repeat(2001)}` } };
      b.config.settings_data.current.color_text = 't:no.such.colour';
    });
    expect(found).to.deep.equal(['templates.product.sections.main.blocks.app.settings.heading: t:no.such.key is not in the default locale en']);
  });
});
