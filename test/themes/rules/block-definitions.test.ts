import { expect } from 'chai';
import { blockDefinitions } from '../../../src/themes/bundle/rules/block-definitions.js';
import { findings } from './run-rule.js';

describe('bundle rule block_definitions (spec 7)', () => {
  it('finds nothing in the fixtures', () => expect(findings(blockDefinitions)).to.deep.equal([]));

  it('a block map key that differs from block.type: blocks.<key>.type', () => {
    expect(findings(blockDefinitions, (b) => (b.blocks.heading.type = 'title'))).to.deep.equal([
      'blocks.heading.type: must equal its key "heading" (blocks are keyed by type), not "title"',
    ]);
  });
});
