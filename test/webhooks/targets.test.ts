import { expect } from 'chai';
import { loadConfig, type Config } from '../../src/config.js';
import {
  checkResolvedAddress,
  checkTargetUrl,
  checkUrlShape,
  classifyAddress,
  guardTarget,
  isLoopbackHost,
  parseIPv4,
  parseIPv6,
  type Resolver,
} from '../../src/outbound/index.js';

const KEY = `k1:${Buffer.alloc(32, 7).toString('base64url')}`;

function productionConfig(allowlist?: string): Config {
  return loadConfig({
    APP_ENV: 'production',
    SECRETS_KEYS: KEY,
    MONGODB_URL: 'mongodb://127.0.0.1:1/none',
    MESSAGE_RELAY_URL: 'https://relay.example',
    MESSAGE_RELAY_TOKEN: 'relay-token-0123456789',
    ...(allowlist ? { WEBHOOK_TARGET_ALLOWLIST: allowlist } : {}),
  });
}

const stagingConfig = () => loadConfig({ APP_ENV: 'staging', SECRETS_KEYS: KEY, MONGODB_URL: 'mongodb://127.0.0.1:1/none' });

/** A resolver that never touches the network: fixed answers per host name. */
const resolver =
  (answers: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const list = answers[hostname];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('Webhook targets (src/outbound/targets.ts)', () => {
  describe('classifyAddress', () => {
    const table: [string, string | null][] = [
      // IPv4 public
      ['8.8.8.8', null],
      ['1.1.1.1', null],
      ['93.184.216.34', null],
      ['100.63.255.255', null],
      ['100.128.0.0', null],
      ['172.15.255.255', null],
      ['172.32.0.0', null],
      ['192.167.255.255', null],
      ['192.169.0.0', null],
      ['169.253.255.255', null],
      ['223.255.255.255', null],
      ['11.0.0.1', null],
      // IPv4 not public
      ['0.0.0.0', 'unspecified'],
      ['0.1.2.3', 'unspecified'],
      ['10.0.0.1', 'private'],
      ['10.255.255.255', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['169.254.169.254', 'link_local'],
      ['169.254.0.1', 'link_local'],
      ['100.64.0.1', 'cgnat'],
      ['100.127.255.255', 'cgnat'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['240.0.0.1', 'reserved'],
      ['192.0.0.8', 'reserved'],
      ['192.0.2.10', 'reserved'],
      ['198.18.0.1', 'reserved'],
      ['198.51.100.7', 'reserved'],
      ['203.0.113.9', 'reserved'],
      // IPv6 public
      ['2606:4700:4700::1111', null],
      ['2001:4860:4860::8888', null],
      ['2a00:1450:4001:81b::200e', null],
      ['[2606:4700:4700::1111]', null],
      // IPv6 not public
      ['::', 'unspecified'],
      ['0:0:0:0:0:0:0:0', 'unspecified'],
      ['::1', 'loopback'],
      ['[::1]', 'loopback'],
      ['0:0:0:0:0:0:0:1', 'loopback'],
      ['fe80::1', 'link_local'],
      ['fe80::1%eth0', 'link_local'],
      ['febf:ffff::1', 'link_local'],
      ['fc00::1', 'unique_local'],
      ['fd12:3456:789a::1', 'unique_local'],
      ['fec0::1', 'private'],
      ['ff02::1', 'multicast'],
      ['ff05::1:3', 'multicast'],
      ['2001:db8::1', 'reserved'],
      ['100::1', 'reserved'],
      ['::2', 'reserved'],
      ['4000::1', 'reserved'],
      // IPv4-mapped, -compatible and embedded IPv4
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['[::ffff:7f00:1]', 'loopback'],
      ['::ffff:10.1.2.3', 'private'],
      ['::ffff:169.254.169.254', 'link_local'],
      ['::ffff:100.64.1.1', 'cgnat'],
      ['::ffff:0.0.0.0', 'unspecified'],
      ['::ffff:8.8.8.8', null],
      ['0:0:0:0:0:ffff:c0a8:0101', 'private'],
      ['::127.0.0.1', 'reserved'],
      ['::ffff:0:8.8.8.8', 'reserved'],
      ['64:ff9b::10.0.0.1', 'private'],
      ['64:ff9b::8.8.8.8', null],
      ['64:ff9b:1::1', 'private'],
      ['2002:7f00:1::1', 'loopback'],
      ['2002:c0a8:101::1', 'private'],
      ['2002:808:808::1', null],
      // Not an address at all: never public
      ['example.com', 'reserved'],
      ['', 'reserved'],
      ['127.1', 'reserved'],
      ['0x7f.0.0.1', 'reserved'],
      ['010.0.0.1', 'reserved'],
      ['256.0.0.1', 'reserved'],
      ['1:2:3:4:5:6:7:8:9', 'reserved'],
      ['1::2::3', 'reserved'],
      ['::ffff:1.2.3', 'reserved'],
    ];
    for (const [address, expected] of table) {
      it(`${JSON.stringify(address)} is ${expected ?? 'public'}`, () => {
        expect(classifyAddress(address)).to.equal(expected);
      });
    }
  });

  describe('address parsing', () => {
    it('parses dotted quads strictly and IPv6 in every form', () => {
      expect(parseIPv4('192.168.0.1')).to.equal(0xc0a80001);
      expect(parseIPv4('1.2.3')).to.equal(null);
      expect(parseIPv4('01.2.3.4')).to.equal(null);
      expect(Buffer.from(parseIPv6('2001:db8::ff00:42:8329')!).toString('hex')).to.equal('20010db8000000000000ff0000428329');
      expect(Buffer.from(parseIPv6('::ffff:1.2.3.4')!).toString('hex')).to.equal('00000000000000000000ffff01020304');
      expect(Buffer.from(parseIPv6('1:2:3:4:5:6:7:8')!).toString('hex')).to.equal('00010002000300040005000600070008');
      expect(parseIPv6('1:2:3:4:5:6:7')).to.equal(null);
      expect(parseIPv6('1:2:3:4::5:6:7:8')).to.equal(null);
      expect(parseIPv6('12345::')).to.equal(null);
      expect(parseIPv6('1.2.3.4::')).to.equal(null);
      expect(parseIPv6('g::1')).to.equal(null);
    });

    it('knows loopback hosts', () => {
      for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.9.8.7', '[::1]', '::1', '::ffff:127.0.0.1'])
        expect(isLoopbackHost(host), host).to.equal(true);
      for (const host of ['example.com', '10.0.0.1', '[::2]', 'localhost.example.com', '0.0.0.0']) expect(isLoopbackHost(host), host).to.equal(false);
    });
  });

  describe('URL rules (checkTargetUrl / checkUrlShape)', () => {
    const test = loadConfig({ APP_ENV: 'test' });
    const dev = loadConfig({ APP_ENV: 'development' });

    it('allows https anywhere (with a port, path and query) and stores the parsed href', async () => {
      for (const url of [
        'https://example.com',
        'https://example.com:8443/hooks?x=1',
        'https://hooks.example.co.uk/a/b',
        'https://10.0.0.1/x',
        'https://[::1]:9000/',
      ]) {
        const verdict = await checkTargetUrl(test, url, { resolve: true });
        expect(verdict.ok, url).to.equal(true);
      }
      const verdict = await checkTargetUrl(test, 'HTTPS://Example.COM:443/Hooks', { resolve: false });
      expect(verdict.ok && verdict.url.href).to.equal('https://example.com/Hooks');
    });

    it('allows plain http only to loopback hosts in development and test', async () => {
      for (const config of [test, dev]) {
        for (const url of ['http://localhost:4000/hooks', 'http://127.0.0.1:4000/', 'http://127.1.2.3/', 'http://[::1]:8080/x', 'http://LOCALHOST/']) {
          expect((await checkTargetUrl(config, url, { resolve: true })).ok, url).to.equal(true);
        }
        for (const url of [
          'http://example.com/',
          'http://10.0.0.1/',
          'http://192.168.1.10:8080/',
          'http://[::2]/',
          'http://localhost.example.com/',
          'http://0.0.0.0/',
        ]) {
          const verdict = await checkTargetUrl(config, url, { resolve: true });
          expect(verdict.ok, url).to.equal(false);
          expect(!verdict.ok && verdict.reason, url).to.match(/must use https/);
        }
      }
    });

    it('refuses plain http in staging and production, even to localhost', () => {
      for (const config of [stagingConfig(), productionConfig()]) {
        for (const url of ['http://localhost:4000/', 'http://127.0.0.1/', 'http://example.com/']) {
          const verdict = checkUrlShape(config, url);
          expect(!verdict.ok && verdict.reason, url).to.equal(`must use https when APP_ENV is ${config.env}`);
        }
      }
    });

    it('refuses credentials, fragments, other schemes, relative and malformed URLs', () => {
      const cases: [string, RegExp][] = [
        ['https://user:pass@example.com/', /credentials/],
        ['https://user@example.com/', /credentials/],
        ['https://@example.com/', /credentials/],
        ['https://:pw@example.com/', /credentials/],
        ['https://example.com/#frag', /fragment/],
        ['https://example.com/#', /fragment/],
        ['ftp://example.com/', /must use https/],
        ['javascript:alert(1)', /must use https/],
        ['file:///etc/passwd', /must use https/],
        ['/relative/path', /absolute URL/],
        ['example.com/hooks', /absolute URL/],
        ['https:example.com', /absolute URL/],
        ['https:\\\\example.com', /absolute URL/],
        ['https://', /absolute URL/],
        [' https://example.com', /whitespace/],
        ['https://example.com/\n', /whitespace/],
        ['https://exa mple.com/', /absolute URL/],
        [`https://example.com/${'a'.repeat(2048)}`, /at most 2048/],
      ];
      for (const [url, reason] of cases) {
        const verdict = checkUrlShape(test, url);
        expect(verdict.ok, url).to.equal(false);
        expect(!verdict.ok && verdict.reason, url).to.match(reason);
      }
    });
  });

  describe('production address rules', () => {
    const prod = productionConfig();

    it('refuses IP literals and loopback names that are not public, without DNS', async () => {
      const cases: [string, RegExp][] = [
        ['https://127.0.0.1/', /the address 127\.0\.0\.1 is a loopback address/],
        ['https://localhost:8443/', /loopback name/],
        ['https://api.localhost/', /loopback name/],
        ['https://10.1.2.3/', /private address/],
        ['https://169.254.169.254/latest/meta-data', /link-local/],
        ['https://100.64.0.1/', /carrier-grade NAT/],
        ['https://0.0.0.0/', /unspecified/],
        ['https://[::1]/', /loopback/],
        ['https://[fd00::1]/', /unique-local/],
        ['https://[fe80::1]/', /link-local/],
        ['https://[::ffff:10.0.0.1]/', /private/],
        ['https://[::ffff:7f00:1]/', /loopback/],
        ['https://224.0.0.1/', /multicast/],
        ['https://2130706433/', /loopback/], // the WHATWG parser reads this as 127.0.0.1
        ['https://0x7f.1/', /loopback/],
      ];
      const never: Resolver = async () => {
        throw new Error('no DNS expected');
      };
      for (const [url, reason] of cases) {
        for (const resolve of [true, false]) {
          const verdict = await checkTargetUrl(prod, url, { resolve, resolver: never });
          expect(verdict.ok, url).to.equal(false);
          expect(!verdict.ok && verdict.reason, url).to.match(reason);
        }
      }
      expect((await checkTargetUrl(prod, 'https://8.8.8.8/', { resolve: true, resolver: never })).ok).to.equal(true);
      expect((await checkTargetUrl(prod, 'https://[2606:4700:4700::1111]:8443/', { resolve: true, resolver: never })).ok).to.equal(true);
    });

    it('resolves host names and refuses one when any address is not public', async () => {
      const dns = resolver({
        'public.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
        'internal.example': ['10.0.0.7'],
        'mixed.example': ['93.184.216.34', '192.168.1.5'],
        'mapped.example': ['::ffff:127.0.0.1'],
        'v6local.example': ['fd00::5'],
      });
      expect((await checkTargetUrl(prod, 'https://public.example/hooks', { resolve: true, resolver: dns })).ok).to.equal(true);
      const refused: [string, RegExp][] = [
        ['https://internal.example/', /the host internal\.example resolves to 10\.0\.0\.7, which is a private address/],
        ['https://mixed.example/', /resolves to 192\.168\.1\.5/],
        ['https://mapped.example/', /loopback/],
        ['https://v6local.example/', /unique-local/],
        ['https://nowhere.example/', /could not be resolved \(ENOTFOUND\)/],
      ];
      for (const [url, reason] of refused) {
        const verdict = await checkTargetUrl(prod, url, { resolve: true, resolver: dns });
        expect(!verdict.ok && verdict.reason, url).to.match(reason);
      }
      // Without resolve only the DNS-free rules apply.
      expect((await checkTargetUrl(prod, 'https://internal.example/', { resolve: false, resolver: dns })).ok).to.equal(true);
      const empty: Resolver = async () => [];
      expect((await checkTargetUrl(prod, 'https://empty.example/', { resolve: true, resolver: empty })).ok).to.equal(false);
    });

    it('uses the real resolver for localhost-like names without the network', async () => {
      // `localhost` is refused by name; an IP literal needs no lookup.
      expect((await checkTargetUrl(prod, 'https://localhost/', { resolve: true })).ok).to.equal(false);
      expect((await checkTargetUrl(prod, 'https://127.0.0.1/', { resolve: true })).ok).to.equal(false);
    });

    it('lets allow-listed hosts through, by exact name, and nothing else', async () => {
      const allowed = productionConfig('Internal.Example, 10.0.0.9,localhost, ::1');
      const dns = resolver({ 'internal.example': ['10.0.0.7'], 'other.example': ['10.0.0.8'] });
      for (const url of ['https://internal.example/', 'https://INTERNAL.example./', 'https://10.0.0.9/', 'https://localhost:9443/', 'https://[::1]/']) {
        expect((await checkTargetUrl(allowed, url, { resolve: true, resolver: dns })).ok, url).to.equal(true);
      }
      for (const url of ['https://other.example/', 'https://sub.internal.example/', 'https://10.0.0.10/']) {
        expect((await checkTargetUrl(allowed, url, { resolve: true, resolver: dns })).ok, url).to.equal(false);
      }
      // Allow-listing never permits plain http in production.
      expect((await checkTargetUrl(allowed, 'http://internal.example/', { resolve: true, resolver: dns })).ok).to.equal(false);
    });

    it('checkResolvedAddress re-checks the address connected to at delivery time', () => {
      expect(checkResolvedAddress(prod, 'hooks.example', '93.184.216.34')).to.deep.equal({ ok: true });
      expect(checkResolvedAddress(prod, 'hooks.example', '2606:4700:4700::1111')).to.deep.equal({ ok: true });
      for (const address of [
        '127.0.0.1',
        '10.0.0.1',
        '169.254.169.254',
        '::1',
        '::ffff:192.168.0.1',
        'fe80::1',
        'fc00::1',
        '100.64.0.1',
        '0.0.0.0',
        '::',
        'ff02::1',
        'not-an-ip',
      ]) {
        const verdict = checkResolvedAddress(prod, 'hooks.example', address);
        expect(verdict.ok, address).to.equal(false);
        expect(!verdict.ok && verdict.reason, address).to.contain('hooks.example resolves to');
      }
      expect(checkResolvedAddress(productionConfig('hooks.example'), 'hooks.example', '10.0.0.1')).to.deep.equal({ ok: true });
      expect(checkResolvedAddress(productionConfig('hooks.example'), 'evil.example', '10.0.0.1').ok).to.equal(false);
    });

    it('guardTarget refuses, at send time, an IP literal target that is not public, IPv6 in brackets too', () => {
      for (const url of [
        'https://127.0.0.1/hooks',
        'https://[::1]/hooks',
        'https://[fd12:3456:789a::1]:8443/x',
        'https://[::ffff:10.0.0.1]/x',
        'https://169.254.169.254/latest',
      ]) {
        const verdict = guardTarget(prod, new URL(url));
        expect(verdict.ok, url).to.equal(false);
      }
      expect(guardTarget(prod, new URL('https://[2606:4700:4700::1111]/hooks')).ok).to.equal(true);
      expect(guardTarget(prod, new URL('https://93.184.216.34/hooks')).ok).to.equal(true);
      expect(guardTarget(loadConfig({ APP_ENV: 'test' }), new URL('https://[::1]/hooks')).ok).to.equal(true);
    });

    it('applies no address rule in development and test', async () => {
      for (const config of [loadConfig({ APP_ENV: 'test' }), loadConfig({ APP_ENV: 'development' })]) {
        expect(checkResolvedAddress(config, 'localhost', '127.0.0.1')).to.deep.equal({ ok: true });
        expect(checkResolvedAddress(config, 'hooks.example', '10.0.0.1')).to.deep.equal({ ok: true });
        expect((await checkTargetUrl(config, 'https://10.0.0.1/', { resolve: true })).ok).to.equal(true);
        expect(guardTarget(config, new URL('https://169.254.169.254/')).ok).to.equal(true);
      }
    });

    it('applies the same address rules in staging as in production, naming the environment', async () => {
      const staging = stagingConfig();
      const dns = resolver({ 'internal.example': ['10.0.0.7'], 'public.example': ['93.184.216.34'] });
      const refused: [string, RegExp][] = [
        ['https://10.1.2.3/', /the address 10\.1\.2\.3 is a private address; staging webhooks must reach a public address/],
        ['https://169.254.169.254/latest/meta-data', /link-local address; staging webhooks/],
        ['https://127.0.0.1/', /loopback address/],
        ['https://[::1]/', /loopback address/],
        ['https://localhost/', /loopback name; staging webhooks/],
        ['https://internal.example/', /the host internal\.example resolves to 10\.0\.0\.7, which is a private address/],
      ];
      for (const [url, reason] of refused) {
        const verdict = await checkTargetUrl(staging, url, { resolve: true, resolver: dns });
        expect(verdict.ok, url).to.equal(false);
        expect(!verdict.ok && verdict.reason, url).to.match(reason);
      }
      expect((await checkTargetUrl(staging, 'https://public.example/', { resolve: true, resolver: dns })).ok).to.equal(true);
      expect(checkResolvedAddress(staging, 'hooks.example', '10.0.0.1').ok).to.equal(false);
      expect(guardTarget(staging, new URL('https://169.254.169.254/')).ok).to.equal(false);
      expect(guardTarget(staging, new URL('https://[::1]/')).ok).to.equal(false);
      expect(guardTarget(staging, new URL('https://93.184.216.34/')).ok).to.equal(true);
      const allowed = loadConfig({
        APP_ENV: 'staging',
        SECRETS_KEYS: KEY,
        MONGODB_URL: 'mongodb://127.0.0.1:1/none',
        WEBHOOK_TARGET_ALLOWLIST: 'internal.example,127.0.0.1',
      });
      expect((await checkTargetUrl(allowed, 'https://internal.example/', { resolve: true, resolver: dns })).ok).to.equal(true);
      expect(guardTarget(allowed, new URL('https://127.0.0.1:8443/')).ok).to.equal(true);
    });
  });
});
