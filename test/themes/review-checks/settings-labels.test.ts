import { expect } from 'chai';
import { settingsLabels } from '../../../src/themes/review/checks/settings-labels.js';
import { configOnly, versionOf } from './version.js';

describe('theme review check settings_labels', () => {
  it('only warns', () => expect(settingsLabels.blocking).to.equal(false));

  it('finds nothing when every setting and option has a label for a person', async () => {
    expect(await settingsLabels.run(configOnly, versionOf('aurora'))).to.deep.equal([]);
  });

  it('names a setting without a label, one labelled with its id, and an unlabelled option', async () => {
    const found = await settingsLabels.run(
      configOnly,
      versionOf('aurora', (b) => {
        const fields = b.config.settings_schema.settings[0]!.settings;
        fields[0]!.label = ' ';
        fields[1]!.label = fields[1]!.id;
        b.sections.hero!.settings_schema[1]!.options![0]!.label = '';
      }),
    );
    expect(found).to.deep.equal([
      'config.settings_schema.settings.0.settings.0: setting color_background has no label',
      'config.settings_schema.settings.0.settings.1: the label of color_text is its id; write it for a person',
      'sections.hero.settings_schema.1.options.0: option small has no label',
    ]);
  });
});
