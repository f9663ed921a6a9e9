import { expect } from 'chai';
import { packagePrice } from '../../../src/themes/bundle/rules/package-price.js';
import { findings } from './run-rule.js';

describe('bundle rule package_price', () => {
  it('finds nothing in a free theme priced 0 or a paid theme with a price', () => {
    expect(findings(packagePrice)).to.deep.equal([]);
    expect(findings(packagePrice, (b) => Object.assign(b.package, { pricing_type: 'paid', price: 49.99 }))).to.deep.equal([]);
  });

  it('refuses a price that disagrees with pricing_type, a missing paid price, and more than two decimals', () => {
    expect(findings(packagePrice, (b) => Object.assign(b.package, { pricing_type: 'free', price: 5 }))).to.deep.equal([
      'package.price: must be 0 for a free theme (pricing_type "free")',
    ]);
    expect(findings(packagePrice, (b) => Object.assign(b.package, { pricing_type: 'paid', price: 0 }))).to.deep.equal([
      'package.price: must be more than 0 for a paid theme (pricing_type "paid")',
    ]);
    expect(
      findings(packagePrice, (b) => {
        b.package.pricing_type = 'paid';
        delete b.package.price;
      }),
    ).to.deep.equal(['package.price: is required for a paid theme (pricing_type "paid")']);
    expect(findings(packagePrice, (b) => Object.assign(b.package, { pricing_type: 'paid', price: 1.999 }))).to.deep.equal([
      'package.price: must have at most two decimal places',
    ]);
  });
});
