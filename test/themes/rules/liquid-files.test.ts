import { expect } from 'chai';
import { liquidFiles } from '../../../src/themes/bundle/rules/liquid-files.js';
import { findings } from './run-rule.js';

describe('bundle rule liquid_files', () => {
  it('finds nothing in a Liquid theme with its files, or a json-contract theme', () => {
    expect(findings(liquidFiles, () => {}, 'ember-liquid')).to.deep.equal([]);
    expect(findings(liquidFiles)).to.deep.equal([]);
  });

  it("wants layout/theme.liquid and each section's sections/<renderer_key>.liquid", () => {
    const found = findings(
      liquidFiles,
      (b) => (b.renderer.assets = b.renderer.assets.filter((a: any) => a.path !== 'layout/theme.liquid' && a.path !== 'sections/main-page.liquid')),
      'ember-liquid',
    );
    expect(found).to.deep.equal([
      'renderer.assets: must include layout/theme.liquid (text/x-liquid): the layout every page of a Liquid theme renders in',
      'sections.main-page.renderer_key: names "main-page", but sections/main-page.liquid (text/x-liquid) is not among renderer.assets',
    ]);
  });

  it('a liquid theme is liquid_ready; a json-contract theme that says it is liquid_ready carries its Liquid files too', () => {
    expect(findings(liquidFiles, (b) => (b.renderer.liquid_ready = false), 'ember-liquid')).to.deep.equal([
      'renderer.liquid_ready: must be true for a liquid theme',
    ]);
    expect(findings(liquidFiles, (b) => (b.renderer.liquid_ready = true))).to.include(
      'sections.hero.renderer_key: names "hero", but sections/hero.liquid (text/x-liquid) is not among renderer.assets',
    );
  });
});
