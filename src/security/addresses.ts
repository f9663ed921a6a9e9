import { BlockList, isIP } from 'node:net';

export type AddressRange = { address: string; prefix: number; family: 'ipv4' | 'ipv6'; cidr: string };

/**
 * An IPv4 or IPv6 range as an operator writes it: `203.0.113.0/24`, `2001:db8::/32`, or a bare
 * address (its /32 or /128). Null for anything Node's BlockList would not take. The prefix is
 * not refused here when it is 0: the schema says why (service.ts).
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
  return { address, prefix, family, cidr: `${address}/${prefix}` };
}

/** A client address as BlockList checks it (an IPv4-mapped IPv6 address matches IPv4 ranges too). */
export function addressOf(ip: string): { address: string; family: 'ipv4' | 'ipv6' } | null {
  const version = isIP(ip);
  return version === 0 ? null : { address: ip, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Whether `ip` is inside `range`. */
export function rangeIncludes(range: AddressRange, ip: string): boolean {
  const client = addressOf(ip);
  if (!client) return false;
  const list = new BlockList();
  list.addSubnet(range.address, range.prefix, range.family);
  return list.check(client.address, client.family);
}
