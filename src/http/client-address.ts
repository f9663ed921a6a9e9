import { isIP } from 'node:net';
import type { AppContext } from './context.js';

/**
 * The client's address as rate limits count it.
 *
 * Without TRUST_PROXY it is the socket's peer. With it, Koa reads X-Forwarded-For keeping only
 * the right-most TRUST_PROXY_HOPS entries (`app.maxIpsCount`, set by createApp), so `ctx.ip`
 * is the address our outermost proxy saw: every entry to its left was written by the client
 * and is ignored. An entry that is not an IP address (a proxy that appends `ip:port`, or
 * garbage in a header shorter than the hops) falls back to the socket's peer.
 *
 * IPv4-mapped IPv6 addresses count as IPv4, and IPv6 clients are counted by their /64
 * network: one subscriber usually holds a whole /64, so rotating addresses inside it would
 * otherwise escape every per-IP limit.
 */
export function clientAddress(ctx: AppContext): string {
  return normalise(ctx.ip) ?? normalise(ctx.socket.remoteAddress ?? '') ?? 'unknown';
}

/**
 * The client's IP address itself (as `clientAddress` finds it, an IPv4-mapped address as IPv4, an
 * IPv6 one whole), for what matches addresses against ranges or records them.
 */
export function clientIp(ctx: AppContext): string {
  return plainIp(ctx.ip) ?? plainIp(ctx.socket.remoteAddress ?? '') ?? 'unknown';
}

function plainIp(raw: string): string | null {
  const address = raw.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIP(mapped[1]!) === 4) return mapped[1]!;
  return isIP(address) === 0 ? null : address.split('%')[0]!;
}

function normalise(raw: string): string | null {
  const address = plainIp(raw);
  if (address === null) return null;
  return isIP(address) === 4 ? address : `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, in lower-case hex without leading zeros. */
export function ipv6Groups(address: string): string[] {
  let s = address.split('%')[0]!.toLowerCase();
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
    s = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  let groups: string[];
  if (s.includes('::')) {
    const [head, tail] = s.split('::') as [string, string];
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  } else {
    groups = s.split(':');
  }
  return groups.map((g) => parseInt(g, 16).toString(16));
}
