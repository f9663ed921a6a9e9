import { expect } from 'chai';
import { fileLayout } from '../../../src/themes/bundle/rules/file-layout.js';
import { inlineAsset } from '../../helpers/themes.js';
import { findings } from './run-rule.js';

describe('bundle rule file_layout', () => {
  it('finds nothing when the layout files agree with their areas (key order ignored)', () => {
    expect(findings(fileLayout, () => {}, 'ember-liquid')).to.deep.equal([]);
    const reordered = (b: any) => {
      const i = b.renderer.assets.findIndex((a: any) => a.path === 'blocks/definitions.json');
      b.renderer.assets[i] = inlineAsset('blocks/definitions.json', 'application/json', JSON.stringify(Object.fromEntries(Object.entries(b.blocks).reverse())));
    };
    expect(findings(fileLayout, reordered, 'ember-liquid')).to.deep.equal([]);
  });

  it('refuses a layout file that disagrees, a JSON file outside the layout, and one that is not JSON', () => {
    let home = 0;
    let count = 0;
    const found = findings(
      fileLayout,
      (b) => {
        b.renderer.assets = b.renderer.assets.filter((a: any) => a.path !== 'config/settings_data.json');
        home = b.renderer.assets.findIndex((a: any) => a.path === 'templates/home.json');
        const changed = JSON.parse(b.renderer.assets[home].content);
        changed.order.reverse();
        b.renderer.assets[home] = inlineAsset('templates/home.json', 'application/json', JSON.stringify(changed));
        b.renderer.assets.push(
          inlineAsset('templates/search.json', 'application/json', '{}'),
          inlineAsset('config/settings_data.json', 'application/json', '{'),
        );
        count = b.renderer.assets.length;
      },
      'ember-liquid',
    );
    expect(found).to.deep.equal([
      `renderer.assets.${home}.content: templates/home.json disagrees with templates.home: it must hold the same JSON`,
      `renderer.assets.${count - 2}.path: "templates/search.json" is not a file of the theme layout (docs/themes.md, Liquid themes)`,
      `renderer.assets.${count - 1}.content: config/settings_data.json is not valid JSON`,
    ]);
  });
});
