import { expect } from 'chai';
import { translationFallbacks } from '../../../src/themes/bundle/rules/translation-fallbacks.js';
import { findings } from './run-rule.js';

describe('bundle rule translation_fallbacks (a warning)', () => {
  it('does not block', () => expect(translationFallbacks.blocking).to.equal(false));

  it('finds nothing when every locale has every key', () => expect(findings(translationFallbacks)).to.deep.equal([]));

  it('warns once per locale and key another locale than en lacks, naming where it is first used', () => {
    const found = findings(translationFallbacks, (b) => {
      delete b.locales.fr.sections.hero.name;
      delete b.locales.fr.options;
    });
    expect(found).to.include('locales.fr: t:sections.hero.name is missing (used at sections.hero.name); en is shown instead');
    expect(found.filter((w) => w.includes('t:options.small '))).to.have.length(1);
  });
});
