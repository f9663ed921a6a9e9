import { expect } from 'chai';
import { liquidBounds } from '../../../src/themes/bundle/rules/liquid-bounds.js';
import { inlineAsset } from '../../helpers/themes.js';
import { findings } from './run-rule.js';

describe('bundle rule liquid_bounds', () => {
  it('finds nothing in a Liquid theme within the bounds', () => {
    expect(findings(liquidBounds, () => {}, 'ember-liquid')).to.deep.equal([]);
  });

  it('refuses a Liquid file past the bounds at its content, naming the file', () => {
    const found = findings(
      liquidBounds,
      (b) => b.renderer.assets.push(inlineAsset('snippets/deep.liquid', 'text/x-liquid', '{% if a %}'.repeat(200) + '{% endif %}'.repeat(200))),
      'ember-liquid',
    );
    expect(found).to.have.length(1);
    expect(found[0]).to.match(/^renderer\.assets\.\d+\.content: snippets\/deep\.liquid /);
  });
});
