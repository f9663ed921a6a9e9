import { expect } from 'chai';
import { localeCoverage } from '../../../src/themes/review/checks/locale-coverage.js';
import { configOnly, versionOf } from './version.js';

describe('theme review check locale_coverage', () => {
  it('only warns', () => expect(localeCoverage.blocking).to.equal(false));

  it('finds nothing when each locale has the keys of en', async () => {
    expect(await localeCoverage.run(configOnly, versionOf('aurora'))).to.deep.equal([]);
  });

  it('counts the keys of another locale that fall back to en, naming the first five', async () => {
    const [found, ...more] = await localeCoverage.run(
      configOnly,
      versionOf('aurora', (b) => {
        delete (b.locales.fr as Record<string, unknown>).options;
      }),
    );
    expect(more).to.deep.equal([]);
    expect(found).to.match(/^fr: \d+ of \d+ keys fall back to en \(options\.[a-z]+(, options\.[a-z]+){4}, …\)$/);
  });
});
