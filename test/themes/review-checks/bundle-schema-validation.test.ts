import { expect } from 'chai';
import { bundleSchemaValidation } from '../../../src/themes/review/checks/bundle-schema-validation.js';
import { configOnly, versionOf } from './version.js';

describe('theme review check bundle_schema_validation', () => {
  it('blocks, and applies to every bundle', () => {
    expect(bundleSchemaValidation.blocking).to.equal(true);
    expect(bundleSchemaValidation.appliesTo).to.equal(undefined);
  });

  it('finds nothing in a stored valid bundle', async () => {
    expect(await bundleSchemaValidation.run(configOnly, versionOf('aurora'))).to.deep.equal([]);
  });

  it("answers the current rules' issues for a bundle stored before them", async () => {
    const found = await bundleSchemaValidation.run(
      configOnly,
      versionOf('aurora', (b) => (b.blocks.heading!.type = 'title')),
    );
    expect(found).to.deep.equal(['blocks.heading.type: must equal its key "heading" (blocks are keyed by type), not "title"']);
  });
});
