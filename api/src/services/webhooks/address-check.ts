import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether a production server may send a webhook to this address (no server-side request forgery): only a
 * public unicast address, as ipaddr.js classifies the special-purpose registries (this machine, private
 * networks, link-local with the cloud metadata at 169.254.169.254, carrier-grade NAT, unique-local,
 * documentation, benchmarking, 6to4 relays, ORCHID, multicast, reserved). An IPv6 address that carries an
 * IPv4 one is judged by the IPv4 it carries: mapped (::ffff:a.b.c.d), translated (::ffff:0:a.b.c.d),
 * NAT64 (64:ff9b::/96), 6to4 (2002::/16) and the deprecated IPv4-compatible ::a.b.c.d, which ipaddr.js
 * counts as unicast. Local-use NAT64 (64:ff9b:1::/48) and Teredo hide what they reach: refused. Not an IP
 * address at all: refused.
 */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(bare) === 0) return true;
  const parsed = ipaddr.parse(bare);
  if (parsed instanceof ipaddr.IPv4) return parsed.range() !== 'unicast';
  const carried = carriedIpv4(parsed);
  if (carried === 'hidden') return true;
  if (carried) return carried.range() !== 'unicast';
  return parsed.range() !== 'unicast';
}

/** The IPv4 address an IPv6 one carries, null for none, `hidden` where it cannot be told. */
function carriedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null | 'hidden' {
  const parts = address.parts;
  const v4 = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
  const last = () => v4(parts[6] ?? 0, parts[7] ?? 0);
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return last();
    case 'rfc6052':
      // 64:ff9b::/96 carries the address in its last 32 bits; 64:ff9b:1::/48 is for local use.
      return parts[2] === 0 ? last() : 'hidden';
    case '6to4':
      return v4(parts[1] ?? 0, parts[2] ?? 0);
    case 'teredo':
      return 'hidden';
    default:
      // ::a.b.c.d (IPv4-compatible, ::/96), but not :: and ::1 themselves (judged as IPv6).
      if (!parts.slice(0, 6).every((part) => part === 0)) return null;
      return parts[6] === 0 && (parts[7] ?? 0) <= 1 ? null : last();
  }
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
