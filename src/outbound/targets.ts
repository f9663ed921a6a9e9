import { lookup as dnsLookupCallback } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import type { Config } from '../config.js';

/**
 * Where requests to a target a merchant (or, later, an app) chose may be sent: webhooks today
 * (spec 6.1 rule 5, docs/webhooks.md#targets), app lifecycle deliveries next. The rules and
 * their texts are the webhook spec's; the allow-list is WEBHOOK_TARGET_ALLOWLIST.
 *
 * - HTTPS is always allowed. Plain HTTP only to a loopback host (`localhost`, 127.0.0.0/8,
 *   `[::1]`) and only in development and test (the spec requires HTTPS in staging and
 *   production).
 * - No credentials (`user:pass@`), no fragment; any port.
 * - In staging and production (the deployed environments: addressRulesApply), a target whose
 *   host is (or resolves to) a private, loopback, link-local (cloud metadata), unique-local,
 *   CGNAT, unspecified, multicast or otherwise reserved address is refused, unless its host
 *   name is in WEBHOOK_TARGET_ALLOWLIST. Checked at creation and update (checkTargetUrl with
 *   `resolve: true`) and again at delivery time on the address actually connected to
 *   (guardTarget, checkResolvedAddress), so DNS that changes after creation cannot reach
 *   inside the network. Development and test apply no address rule: their receivers run on
 *   loopback.
 */

export type TargetVerdict = { ok: true; url: URL } | { ok: false; reason: string };
export type AddressVerdict = { ok: true } | { ok: false; reason: string };

/** Why an address is not a public unicast address, or null when it is one. */
export type AddressClass = 'unspecified' | 'loopback' | 'private' | 'link_local' | 'unique_local' | 'cgnat' | 'multicast' | 'broadcast' | 'reserved';

/** A DNS resolver: every address a host name resolves to (node:dns/promises `lookup` with `all: true`). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const MAX_TARGET_URL_LENGTH = 2048;
const RESOLVE_TIMEOUT_MS = 5000;

const defaultResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** `[::1]` → `::1`; `Example.COM.` → `example.com`. */
export function normalizeHost(hostname: string): string {
  const h = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return h.toLowerCase().replace(/\.$/, '');
}

const isAllowlisted = (config: Config, hostname: string) => config.webhooks.targetAllowlist.includes(normalizeHost(hostname));

/**
 * Whether targets must reach a public address (or an allow-listed host): in the deployed
 * environments, staging as well as production, so a staging deployment (which holds real
 * credentials and sits in a real network) cannot be pointed at its own metadata service or
 * internal hosts. Development and test deliver to receivers on loopback.
 */
export const addressRulesApply = (config: Pick<Config, 'env'>): boolean => config.env === 'staging' || config.env === 'production';

const LOOPBACK_NAME = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/**
 * Check a target URL as a subscription stores it. With `resolve: true` (creation, update),
 * staging and production also resolve the host name and refuse it when any of its addresses
 * is not public. The URL in a successful verdict is the parsed one; store `url.href`.
 */
export async function checkTargetUrl(config: Config, raw: string, options: { resolve: boolean; resolver?: Resolver }): Promise<TargetVerdict> {
  const shape = checkUrlShape(config, raw);
  if (!shape.ok) return shape;
  const { url } = shape;
  if (!addressRulesApply(config)) return shape;
  const host = normalizeHost(url.hostname);
  if (isAllowlisted(config, host)) return shape;
  if (isIpLiteral(host)) {
    const verdict = checkResolvedAddress(config, host, host);
    return verdict.ok ? shape : verdict;
  }
  if (LOOPBACK_NAME(host)) return { ok: false, reason: `the host ${host} is a loopback name; ${config.env} webhooks must reach a public address` };
  if (!options.resolve) return shape;
  let addresses: { address: string }[];
  try {
    addresses = await withTimeout((options.resolver ?? defaultResolver)(host), RESOLVE_TIMEOUT_MS);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return { ok: false, reason: `the host ${host} could not be resolved${typeof code === 'string' ? ` (${code})` : ''}` };
  }
  if (addresses.length === 0) return { ok: false, reason: `the host ${host} could not be resolved` };
  for (const { address } of addresses) {
    const verdict = checkResolvedAddress(config, host, address);
    if (!verdict.ok) return verdict;
  }
  return shape;
}

/**
 * The rules that need no DNS: scheme, credentials, fragment, length, and plain HTTP only to
 * loopback outside staging and production.
 */
export function checkUrlShape(config: Config, raw: string): TargetVerdict {
  if (raw.length > MAX_TARGET_URL_LENGTH) return { ok: false, reason: `must be at most ${MAX_TARGET_URL_LENGTH} characters` };
  if (raw !== raw.trim()) return { ok: false, reason: 'must not start or end with whitespace' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an absolute URL such as https://example.com/webhooks' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'must use https (or http to localhost in development)' };
  if (!/^https?:\/\/[^/\\]/i.test(raw)) return { ok: false, reason: 'must be an absolute URL such as https://example.com/webhooks' };
  // The authority as written: `https://@host` has an empty user name the parser drops.
  const authority = raw.slice(raw.indexOf('//') + 2).split(/[/?#\\]/)[0] ?? '';
  if (url.username || url.password || authority.includes('@')) return { ok: false, reason: 'must not contain credentials (user:password@)' };
  if (raw.includes('#')) return { ok: false, reason: 'must not contain a fragment (#...)' };
  if (!url.hostname) return { ok: false, reason: 'must name a host' };
  if (url.protocol === 'http:') {
    if (config.env === 'production' || config.env === 'staging') return { ok: false, reason: `must use https when APP_ENV is ${config.env}` };
    if (!isLoopbackHost(url.hostname)) return { ok: false, reason: 'must use https; plain http is allowed only to localhost, 127.0.0.0/8 or [::1]' };
  }
  return { ok: true, url };
}

/** localhost, 127.0.0.0/8 or ::1 (also as an IPv4-mapped address). */
export function isLoopbackHost(hostname: string): boolean {
  const host = normalizeHost(hostname);
  return host === 'localhost' || (isIpLiteral(host) && classifyAddress(host) === 'loopback');
}

/**
 * Re-check at delivery time, after DNS resolution: may a request to `hostname` go to
 * `address`? In development and test every address is allowed (local receivers); in staging
 * and production only public unicast addresses, or any address when the host name is
 * allow-listed.
 */
export function checkResolvedAddress(config: Config, hostname: string, address: string): AddressVerdict {
  if (!addressRulesApply(config)) return { ok: true };
  if (isAllowlisted(config, hostname)) return { ok: true };
  const cls = classifyAddress(normalizeHost(address));
  if (cls === null) return { ok: true };
  const host = normalizeHost(hostname);
  const where = host === normalizeHost(address) ? `the address ${host}` : `the host ${host} resolves to ${address}, which`;
  return { ok: false, reason: `${where} is ${DESCRIPTIONS[cls]}; ${config.env} webhooks must reach a public address (or an allow-listed host)` };
}

/**
 * The delivery-time check of one send (sender.ts applies it when asked to `guard`): in staging
 * and production an IP literal is checked here, since no DNS lookup happens for one, and a host
 * name on every address it resolves to, through the returned lookup. In development and test
 * nothing is checked.
 */
export function guardTarget(config: Config, url: URL): { ok: true; lookup?: LookupFunction } | { ok: false; reason: string } {
  if (!addressRulesApply(config)) return { ok: true };
  // `[::1]` as URL.hostname has its brackets: the literal inside is what is checked.
  const host = normalizeHost(url.hostname);
  if (isIpLiteral(host)) {
    const verdict = checkResolvedAddress(config, host, host);
    if (!verdict.ok) return verdict;
  }
  return { ok: true, lookup: checkedLookup(config) };
}

/**
 * A DNS lookup for the connection that refuses, at every send, a host that now resolves to an
 * address the rules refuse (and is not allow-listed): DNS that changed after the target was
 * accepted cannot reach inside the network. The refusal fails the request with the reason.
 */
export function checkedLookup(config: Config): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookupCallback(hostname, { all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.map((a) => checkResolvedAddress(config, hostname, a.address)).find((v) => !v.ok);
      if (bad && !bad.ok) return callback(Object.assign(new Error(`Target refused: ${bad.reason}`), { code: 'ETARGETREFUSED' }), '', 0);
      const first = addresses[0]!;
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}

const DESCRIPTIONS: Record<AddressClass, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private address',
  link_local: 'a link-local address',
  unique_local: 'a unique-local address',
  cgnat: 'a carrier-grade NAT (shared) address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
};

export const isIpLiteral = (host: string): boolean => parseIPv4(host) !== null || parseIPv6(host) !== null;

/**
 * Classify an IP address (IPv4 dotted quad or IPv6, brackets and zone ids allowed). Returns
 * null for a public unicast address, the class otherwise; anything that is not an IP
 * address at all is `reserved` (never treated as public).
 */
export function classifyAddress(address: string): AddressClass | null {
  const host = normalizeHost(address);
  const v4 = parseIPv4(host);
  if (v4 !== null) return classifyIPv4(v4);
  const v6 = parseIPv6(host);
  if (v6 !== null) return classifyIPv6(v6);
  return 'reserved';
}

type Range4 = [base: string, bits: number, cls: AddressClass];

const IPV4_RANGES: Range4[] = [
  ['0.0.0.0', 8, 'unspecified'], // "this network"
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link_local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // TEST-NET-1
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'], // TEST-NET-2
  ['203.0.113.0', 24, 'reserved'], // TEST-NET-3
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];

const IPV4_TABLE = IPV4_RANGES.map(([base, bits, cls]) => ({ base: parseIPv4(base)!, mask: bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0, cls }));

function classifyIPv4(ip: number): AddressClass | null {
  for (const { base, mask, cls } of IPV4_TABLE) if ((ip & mask) >>> 0 === base) return cls;
  return null;
}

function classifyIPv6(b: Uint8Array): AddressClass | null {
  const zero = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  const v4At = (i: number) => ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
  if (zero(0, 16)) return 'unspecified';
  if (zero(0, 15) && b[15] === 1) return 'loopback';
  // ::ffff:a.b.c.d (IPv4-mapped): the IPv4 address is the one connected to.
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return classifyIPv4(v4At(12));
  // ::a.b.c.d (IPv4-compatible, deprecated) and ::ffff:0:a.b.c.d (SIIT): never public.
  if (zero(0, 12)) return 'reserved';
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return 'reserved';
  // 64:ff9b::/96 (NAT64): the embedded IPv4 address decides; 64:ff9b:1::/48 is local-use.
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) {
    if (zero(4, 12)) return classifyIPv4(v4At(12));
    if (b[4] === 0x00 && b[5] === 0x01) return 'private';
  }
  // 2002::/16 (6to4): the embedded IPv4 address decides.
  if (b[0] === 0x20 && b[1] === 0x02) return classifyIPv4(v4At(2));
  if (b[0] === 0x01 && b[1] === 0x00 && zero(2, 8)) return 'reserved'; // 100::/64 discard-only
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return 'reserved'; // 2001:db8::/32 documentation
  if ((b[0]! & 0xfe) === 0xfc) return 'unique_local'; // fc00::/7
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return 'link_local'; // fe80::/10
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0xc0) return 'private'; // fec0::/10 site-local (deprecated)
  if (b[0] === 0xff) return 'multicast';
  // Outside 2000::/3 (global unicast) nothing is assigned for public use.
  if ((b[0]! & 0xe0) !== 0x20) return 'reserved';
  return null;
}

/** A strict dotted quad (no octal, hex or short forms) as an unsigned 32-bit number. */
export function parseIPv4(s: string): number | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p)) return null;
    const v = Number(p);
    if (v > 255) return null;
    n = n * 256 + v;
  }
  return n;
}

/** An IPv6 address (optionally with a trailing dotted quad and a `%zone`) as 16 bytes. */
export function parseIPv6(s: string): Uint8Array | null {
  const text = s.replace(/%[0-9A-Za-z._~-]+$/, '');
  if (!text.includes(':') || !/^[0-9A-Fa-f:.]+$/.test(text)) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i]!;
      if (i === pieces.length - 1 && p.includes('.')) {
        const v4 = parseIPv4(p);
        if (v4 === null) return null;
        out.push(v4 >>> 16, v4 & 0xffff);
      } else {
        if (!/^[0-9A-Fa-f]{1,4}$/.test(p)) return null;
        out.push(parseInt(p, 16));
      }
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return null;
  // A dotted quad may only end the address.
  if (halves.length === 2 && halves[0]!.includes('.')) return null;
  let all: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return null;
    all = [...head, ...new Array<number>(missing).fill(0), ...tail];
  } else {
    if (head.length !== 8) return null;
    all = head;
  }
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  return bytes;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(Object.assign(new Error('DNS lookup timed out'), { code: 'ETIMEOUT' })), ms);
    timer.unref();
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
