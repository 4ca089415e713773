import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook must never reach in production mode (no server-side request forgery): this
 * machine, its private networks, link-local (cloud metadata at 169.254.169.254), unique-local, and
 * the special ranges that are not the public internet.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16). */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = lower.match(/^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) return dotted[1] ?? null;
  const groups = expandIpv6(lower);
  if (!groups) return null;
  const toV4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const isMapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  const isNat64 =
    groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (isMapped || isNat64) return toV4(groups[6] ?? 0, groups[7] ?? 0);
  if (groups[0] === 0x2002) return toV4(groups[1] ?? 0, groups[2] ?? 0);
  return null;
}

function expandIpv6(address: string): number[] | null {
  if (address.includes('.')) return null;
  const [head = '', tail] = address.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  const groups = [...left, ...Array<number>(missing).fill(0), ...right];
  return groups.some((g) => Number.isNaN(g)) ? null : groups;
}

/** True for an address a production server must not send a webhook to. Not an IP at all: true. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIpv4(bare);
  if (v4) return blocked.check(v4, 'ipv4');
  return blocked.check(bare, 'ipv6');
}

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((entry) => entry.address)),
    ),
  );

/**
 * Why a webhook URL may not be registered, or null. Outside production mode any http(s) address is
 * fine (tests and laptops deliver to 127.0.0.1). In production: https only, and every address its host
 * resolves to must be public (a name resolving to one private address is refused).
 */
export async function webhookUrlProblem(
  url: string,
  production: boolean,
  resolve: Resolver = systemResolver,
): Promise<string | null> {
  if (!production) return null;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') return 'url must be an https:// address';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      return `url's host ${host} could not be resolved`;
    }
  }
  if (addresses.length === 0) return `url's host ${host} could not be resolved`;
  if (addresses.some(isForbiddenAddress)) {
    return 'url must reach a public address: private, loopback, link-local and unique-local addresses are refused';
  }
  return null;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The `lookup` of a delivery's connection in production mode: the addresses the connection will use
 * are the ones checked (a name that resolved to a public address at creation and to a private one now,
 * DNS rebinding, is refused at connection time), every one of them.
 */
export function guardedLookup(
  hostname: string,
  options: LookupOptions,
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const forbidden = addresses.find((entry) => isForbiddenAddress(entry.address));
    if (forbidden || addresses.length === 0) {
      const refusal = new Error(
        `refused: ${hostname} resolves to ${forbidden?.address ?? 'nothing'}, not a public address`,
      ) as NodeJS.ErrnoException;
      refusal.code = 'EADDRNOTPUBLIC';
      return callback(refusal, []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
}
