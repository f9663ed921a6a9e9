import { expect } from 'chai';
import { settingFields } from '../../../src/themes/bundle/rules/setting-fields.js';
import { findings } from './run-rule.js';

const field = (b: any) => b.config.settings_schema.settings[0].settings;

describe('bundle rule setting_fields', () => {
  it('finds nothing in the fixtures', () => {
    expect(findings(settingFields)).to.deep.equal([]);
    expect(findings(settingFields, () => {}, 'ember-liquid')).to.deep.equal([]);
  });

  it("refuses an id used twice in the theme's groups, and a key that does not apply to the type", () => {
    const dup = findings(settingFields, (b) => b.config.settings_schema.settings[1].settings.push({ id: 'color_background', type: 'color', label: 'Again' }));
    expect(dup).to.have.length(1);
    expect(dup[0]).to.match(
      /^config\.settings_schema\.settings\.1\.settings\.\d+\.id: is the same id as config\.settings_schema\.settings\.0\.settings\.0\.id/,
    );
    expect(findings(settingFields, (b) => (field(b)[0].min = 1))).to.deep.equal([
      'config.settings_schema.settings.0.settings.0.min: does not apply to a color setting (only to range, number)',
    ]);
  });

  it('checks range bounds and steps, unique option values, and the default against the field', () => {
    const range = (f: object) => (b: any) => field(b).push({ id: 'r', type: 'range', label: 'R', ...f });
    expect(findings(settingFields, range({ min: 5, max: 5, step: 1, default: 5 }))).to.deep.include(
      'config.settings_schema.settings.0.settings.4.max: must be greater than min (5)',
    );
    expect(findings(settingFields, range({ min: 0, max: 10, step: 3, default: 0 }))).to.deep.equal([
      'config.settings_schema.settings.0.settings.4.step: must divide max - min (10) into whole steps',
    ]);
    expect(findings(settingFields, range({ min: 0, max: 1000, step: 1, default: 0 }))).to.deep.equal([
      'config.settings_schema.settings.0.settings.4.step: must give at most 101 positions between min and max (it gives 1001)',
    ]);
    const select = (b: any) =>
      field(b).push({
        id: 's',
        type: 'select',
        label: 'S',
        options: [
          { value: 'a', label: 'A' },
          { value: 'a', label: 'A again' },
        ],
        default: 'b',
      });
    expect(findings(settingFields, select)).to.deep.equal([
      'config.settings_schema.settings.0.settings.4.options.1.value: is the same value as options.0.value',
      'config.settings_schema.settings.0.settings.4.default: must be one of the options "a", "a" (select setting "s")',
    ]);
    expect(findings(settingFields, (b) => (field(b)[1].default = 'black'))).to.deep.equal([
      'config.settings_schema.settings.0.settings.1.default: must be a colour #rgb, #rgba, #rrggbb or #rrggbbaa (color setting "color_text")',
    ]);
  });

  it("checks a section's and a block's own schema, each with its own ids", () => {
    const found = findings(settingFields, (b) => {
      b.sections.hero.settings_schema.push({ ...b.sections.hero.settings_schema[0] });
      b.blocks.heading.settings_schema.push({ id: 'color_background', type: 'toggle', label: 'Not a duplicate here', default: 'yes' });
    });
    expect(found.some((f) => /^sections\.hero\.settings_schema\.\d+\.id: is the same id as sections\.hero\.settings_schema\.0\.id/.test(f))).to.equal(true);
    expect(found.some((f) => /^blocks\.heading\.settings_schema\.\d+\.default: must be true or false/.test(f))).to.equal(true);
    expect(found).to.have.length(2);
  });
});
