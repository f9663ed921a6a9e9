import { expect } from 'chai';
import { resolveSettings, settingValuesIssues } from '../../src/apps/functions/settings.js';

describe('Checkout Functions: a merchant’s settings', () => {
  const defaults = { home_country: 'CA', free_over: 5000, hide_express: true };

  it('may change a value within its default’s type, and the program sees the defaults with the changes over them', () => {
    const values = { free_over: 7500, hide_express: false };
    expect(settingValuesIssues(defaults, values, 'settings')).to.deep.equal([]);
    expect(resolveSettings(defaults, values)).to.deep.equal({ home_country: 'CA', free_over: 7500, hide_express: false });
    expect(resolveSettings(defaults)).to.deep.equal(defaults);
  });

  it('never changes a type, adds a setting or reaches a prototype name', () => {
    const values = JSON.parse('{"free_over": "lots", "hide_express": 1, "home_country": "x", "colour": "red", "constructor": 1, "__proto__": 2}');
    expect(settingValuesIssues(defaults, values, 'settings')).to.deep.equal(
      [
        'settings.free_over: must be a number, as its default is',
        'settings.hide_express: must be a boolean, as its default is',
        'settings.colour: is not a setting of this function',
        'settings.constructor: is not a setting of this function',
        'settings.__proto__: is not a setting of this function',
      ].map((line) => ({ path: line.slice(0, line.indexOf(':')), message: line.slice(line.indexOf(':') + 2) })),
    );
    expect(settingValuesIssues(defaults, { home_country: 'x'.repeat(501) }, 's')).to.deep.equal([
      { path: 's.home_country', message: 'must be at most 500 characters' },
    ]);
    expect(settingValuesIssues(defaults, [], 's')).to.deep.equal([{ path: 's', message: 'must be an object of setting names and values' }]);
  });
});
