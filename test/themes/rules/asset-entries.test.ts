import { expect } from 'chai';
import { assetEntries } from '../../../src/themes/bundle/rules/asset-entries.js';
import { inlineAsset, loadFixture } from '../../helpers/themes.js';
import { findings } from './run-rule.js';

/** The fixture's own assets: an added one comes after them. */
const AURORA_ASSETS = (loadFixture('aurora') as { renderer: { assets: unknown[] } }).renderer.assets.length;

describe('bundle rule asset_entries', () => {
  it('finds nothing in the fixtures', () => {
    expect(findings(assetEntries)).to.deep.equal([]);
    expect(findings(assetEntries, () => {}, 'ember-liquid')).to.deep.equal([]);
  });

  it('refuses a path repeated ignoring case, and a content type that does not fit the extension', () => {
    expect(findings(assetEntries, (b) => (b.renderer.assets[1].path = 'assets/Base.css'))).to.deep.include(
      'renderer.assets.1.path: is the same path as renderer.assets.0.path (paths are compared ignoring case)',
    );
    expect(findings(assetEntries, (b) => (b.renderer.assets[0].content_type = 'text/javascript'))).to.deep.equal([
      'renderer.assets.0.content_type: text/javascript is for files ending .js or .mjs, not "assets/base.css"',
    ]);
  });

  it('wants exactly one of content or media_id, binary types by media id, and size and sha256 of the content', () => {
    expect(findings(assetEntries, (b) => delete b.renderer.assets[0].content)).to.deep.equal([
      'renderer.assets.0: must have exactly one of content (inline UTF-8 text) or media_id (an uploaded file)',
    ]);
    expect(findings(assetEntries, (b) => b.renderer.assets.push(inlineAsset('assets/photo.png', 'image/png', 'png')))).to.deep.equal([
      `renderer.assets.${AURORA_ASSETS}.content: image/png is binary: upload it with POST /v1/media and give its media_id`,
    ]);
    const [size] = findings(assetEntries, (b) => (b.renderer.assets[0].size += 1));
    expect(size).to.match(/^renderer\.assets\.0\.size: must be the content's length in UTF-8 bytes/);
    const [sha] = findings(assetEntries, (b) => (b.renderer.assets[0].sha256 = '0'.repeat(64)));
    expect(sha).to.match(/^renderer\.assets\.0\.sha256: does not match the content/);
  });

  it('refuses assets that total more than the theme size limit', () => {
    const found = findings(assetEntries, (b) => {
      for (let i = 0; i < 3; i++)
        b.renderer.assets.push({
          path: `assets/p${i}.webp`,
          content_type: 'image/webp',
          size: 20_000_000,
          sha256: 'b'.repeat(64),
          media_id: `65f1c0ffee0000000000000${i}`,
        });
    });
    expect(found).to.have.length(1);
    expect(found[0]).to.match(/^renderer\.assets: must total at most 52428800 bytes \(they total 600\d{5}\)$/);
  });
});
