import { BlockList, isIP } from 'node:net';
import { ipv6Groups } from '../http/client-address.js';

export type AddressRange = { address: string; prefix: number; family: 'ipv4' | 'ipv6'; cidr: string };

/** Every IPv4 client, as BlockList also matches it: the IPv4-mapped IPv6 range. */
const IPV4_MAPPED = listOf('::ffff:0:0', 96, 'ipv6');

/**
 * An IPv4 or IPv6 range as an operator writes it: `203.0.113.0/24`, `2001:db8::/32`, or a bare
 * address (its /32 or /128). Null for anything Node's BlockList would not take. An IPv4-mapped
 * range (`::ffff:203.0.113.0/120`) is the IPv4 range it maps (`203.0.113.0/24`): BlockList matches
 * IPv4 clients against it anyway, so it is stored, shown and judged as what it blocks. Whether a
 * block may cover the range is `blockRefusal`'s question.
 */
export function parseRange(raw: string): AddressRange | null {
  const parts = raw.split('/');
  if (parts.length > 2) return null;
  const address = parts[0]!.toLowerCase();
  const version = isIP(address);
  if (version === 0) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const max = version === 4 ? 32 : 128;
  const prefixText = parts[1] ?? String(max);
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (prefix > max) return null;
  try {
    new BlockList().addSubnet(address, prefix, family);
  } catch {
    return null;
  }
  if (family === 'ipv6' && prefix >= 96 && IPV4_MAPPED.check(address, 'ipv6')) {
    const [high, low] = ipv6Groups(address)
      .slice(6)
      .map((g) => parseInt(g, 16));
    const ipv4 = [high! >> 8, high! & 255, low! >> 8, low! & 255].join('.');
    return { address: ipv4, prefix: prefix - 96, family: 'ipv4', cidr: `${ipv4}/${prefix - 96}` };
  }
  return { address, prefix, family, cidr: `${address}/${prefix}` };
}

/**
 * The broadest block of each family: the size of one regional registry's allocation from IANA
 * (an IPv4 /8, an IPv6 /12). Anything broader blocks a continent's clients, not an attacker.
 */
export const BROADEST_PREFIX = { ipv4: 8, ipv6: 12 } as const;

export type BlockRefusal = { code: 'block_too_broad' | 'block_includes_loopback'; message: string };

/**
 * Why a block of `range` would lock out more than it should, whoever asks: every IPv4 client (an
 * IPv6 range holding the IPv4-mapped range), more than BROADEST_PREFIX allows, or loopback (the
 * machine's own probes and tools, and every client when a proxy in front is not trusted). Null
 * when it may be blocked. The operator's own address is the caller's question (service.ts).
 */
export function blockRefusal(range: AddressRange): BlockRefusal | null {
  const broadest = BROADEST_PREFIX[range.family];
  if (range.prefix < broadest) {
    const every = range.prefix === 0 ? ` (it is every ${range.family === 'ipv4' ? 'IPv4' : 'IPv6'} client)` : '';
    return { code: 'block_too_broad', message: `${range.cidr} is broader than a /${broadest}, the broadest range a block may cover${every}` };
  }
  if (range.family === 'ipv6' && range.prefix <= 96 && listOf(range.address, range.prefix, 'ipv6').check('::ffff:0:0', 'ipv6')) {
    return { code: 'block_too_broad', message: `${range.cidr} holds the IPv4-mapped range ::ffff:0:0/96: it would block every IPv4 client` };
  }
  const loopback = range.family === 'ipv4' ? { address: '127.0.0.0', prefix: 8 } : { address: '::1', prefix: 128 };
  const overlaps =
    listOf(range.address, range.prefix, range.family).check(loopback.address, range.family) ||
    listOf(loopback.address, loopback.prefix, range.family).check(range.address, range.family);
  if (overlaps) return { code: 'block_includes_loopback', message: `${range.cidr} includes loopback (${loopback.address}/${loopback.prefix})` };
  return null;
}

function listOf(address: string, prefix: number, family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  list.addSubnet(address, prefix, family);
  return list;
}

/** A client address as BlockList checks it (an IPv4-mapped IPv6 address matches IPv4 ranges too). */
export function addressOf(ip: string): { address: string; family: 'ipv4' | 'ipv6' } | null {
  const version = isIP(ip);
  return version === 0 ? null : { address: ip, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Whether `ip` is inside `range`. */
export function rangeIncludes(range: AddressRange, ip: string): boolean {
  const client = addressOf(ip);
  return client !== null && listOf(range.address, range.prefix, range.family).check(client.address, client.family);
}
