import { expect } from 'chai';
import { settingValues } from '../../../src/themes/bundle/rules/setting-values.js';
import { findings } from './run-rule.js';

describe('bundle rule setting_values', () => {
  it('finds nothing in the fixtures', () => {
    expect(findings(settingValues)).to.deep.equal([]);
    expect(findings(settingValues, () => {}, 'ember-liquid')).to.deep.equal([]);
  });

  it('refuses a key of settings_data that is not a theme setting, and a value its field does not take', () => {
    expect(findings(settingValues, (b) => (b.config.settings_data.current.unknown_setting = true))).to.deep.equal([
      'config.settings_data.current.unknown_setting: is not a setting of the theme settings (config.settings_schema)',
    ]);
    expect(findings(settingValues, (b) => (b.config.settings_data.current.color_text = 'black'))).to.deep.equal([
      'config.settings_data.current.color_text: must be a colour #rgb, #rgba, #rrggbb or #rrggbbaa (color setting "color_text")',
    ]);
  });

  it("checks a template's section and block settings against their definitions' fields", () => {
    const found = findings(settingValues, (b) => {
      b.templates.home.sections.hero.settings.nope = 1;
      b.templates.home.sections.hero.blocks.heading.settings.nope = 1;
    });
    expect(found).to.deep.equal([
      'templates.home.sections.hero.settings.nope: is not a setting of section "hero"',
      'templates.home.sections.hero.blocks.heading.settings.nope: is not a setting of block "heading"',
    ]);
  });

  it('reports unstorable keys once, without checking them against fields', () => {
    const found = findings(settingValues, (b) => (b.config.settings_data.current['$where'] = 1));
    expect(found).to.deep.equal(['config.settings_data.current.$where: keys must not start with "$" or contain "." or NUL characters']);
  });

  it('an image value names an image asset or a media id', () => {
    const image = (value: string) => (b: any) => (b.templates.home.sections.hero.settings.image = value);
    expect(findings(settingValues, image('65f1c0ffee00000000000001'))).to.deep.equal([]);
    const [missing] = findings(settingValues, image('assets/nope.png'));
    expect(missing).to.match(/^templates\.home\.sections\.hero\.settings\.image: must be the path of an image among renderer\.assets or a media id/);
    const [notImage] = findings(settingValues, image('assets/base.css'));
    expect(notImage).to.match(/names "assets\/base\.css", which is text\/css, not an image/);
  });
});
