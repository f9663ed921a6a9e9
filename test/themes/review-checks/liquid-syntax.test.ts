import { expect } from 'chai';
import { liquidSyntax } from '../../../src/themes/review/checks/liquid-syntax.js';
import { closeLiquidSyntaxThreads } from '../../../src/themes/review/liquid-syntax.js';
import { inlineAsset } from '../../helpers/themes.js';
import { versionOf } from './version.js';

describe('theme review check liquid_syntax', () => {
  // What the check's thread needs of the platform: its memory limit and a log.
  const platform = { config: { env: 'test', rendering: { threadMemoryMb: 64 } }, log: { warn: () => {} } } as never;
  after(() => closeLiquidSyntaxThreads(platform));

  it('blocks, and applies to Liquid themes only', () => {
    expect(liquidSyntax.blocking).to.equal(true);
    expect(liquidSyntax.appliesTo!(versionOf('ember-liquid').bundle)).to.equal(true);
    expect(liquidSyntax.appliesTo!(versionOf('aurora').bundle)).to.equal(false);
  });

  it('finds nothing in Liquid files that parse', async () => {
    expect(await liquidSyntax.run(platform, versionOf('ember-liquid'))).to.deep.equal([]);
  });

  it('names each file that does not parse, with its line and column', async () => {
    const version = versionOf('ember-liquid', (b) => b.renderer.assets.push(inlineAsset('snippets/broken.liquid', 'text/x-liquid', 'ok\n{% if %}')));
    const found = await liquidSyntax.run(platform, version);
    expect(found).to.have.length(1);
    expect(found[0]).to.match(/^snippets\/broken\.liquid:2:\d+: /);
  });
});
