import { expect } from 'chai';
import { localeDictionaries } from '../../../src/themes/bundle/rules/locale-dictionaries.js';
import { findings } from './run-rule.js';

describe('bundle rule locale_dictionaries', () => {
  it('finds nothing in the fixtures', () => expect(findings(localeDictionaries)).to.deep.equal([]));

  it('wants strings or objects of them, within their length and depth', () => {
    expect(findings(localeDictionaries, (b) => (b.locales.fr.options.small = 5))).to.deep.equal([
      'locales.fr.options.small: must be a string or an object of translations',
    ]);
    expect(findings(localeDictionaries, (b) => (b.locales.en.long = 'x'.repeat(5001)))).to.deep.equal(['locales.en.long: must be at most 5000 characters']);
    expect(findings(localeDictionaries, (b) => (b.locales.en.a = { b: { c: { d: { e: { f: { g: 'too deep' } } } } } }))).to.deep.equal([
      'locales.en.a.b.c.d.e.f: must not nest deeper than 6 levels',
    ]);
  });

  it('refuses unstorable keys, and then checks nothing more of that locale', () => {
    expect(
      findings(localeDictionaries, (b) => {
        b.locales.fr['a.b'] = 'x';
        b.locales.fr.options.small = 5;
      }),
    ).to.deep.equal(['locales.fr.a.b: keys must not start with "$" or contain "." or NUL characters']);
  });
});
