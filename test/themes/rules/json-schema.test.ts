import { expect } from 'chai';
import { jsonSchema } from '../../../src/themes/bundle/rules/json-schema.js';
import { findings } from './run-rule.js';

describe('bundle rule json_schema', () => {
  it('finds nothing in the fixtures', () => {
    expect(findings(jsonSchema)).to.deep.equal([]);
    expect(findings(jsonSchema, () => {}, 'ember-liquid')).to.deep.equal([]);
  });

  it('reports every shape problem at once, each at its path', () => {
    const found = findings(jsonSchema, (b) => {
      b.package.slug = 'Aurora Theme';
      b.renderer.engine = 'jinja';
      b.config.settings_schema.settings[0].settings[0].type = 'colour';
    });
    expect(found.some((f) => f.startsWith('package.slug: '))).to.equal(true);
    expect(found.some((f) => f.startsWith('renderer.engine: '))).to.equal(true);
    expect(found.some((f) => f.startsWith('config.settings_schema.settings.0.settings.0.type: '))).to.equal(true);
  });

  it('blocks', () => expect(jsonSchema.blocking).to.equal(true));
});
