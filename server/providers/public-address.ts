// Public addresses only, for URLs partners give us: a webhook URL is checked when it is set (flows) and its host's addresses
// again when it is called (workers), so a name that later resolves inward is refused too (no DNS rebinding).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from '../domain/webhooks';

export class UnsafeAddressError extends Error {
  override name = 'UnsafeAddressError';
}

/** A DNS lookup that refuses a name when any of its addresses is not public. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as unknown as LookupAddress[];
    const bad = list.find((a) => !isPublicAddress(a.address));
    if (!list.length || bad) return callback(new UnsafeAddressError(`${hostname} resolves to a non-public address`), '', 0);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

/** Resolves a URL's host and checks every address (production, at creation): throws UnsafeAddressError. */
export async function assertPublicUrl(url: string): Promise<void> {
  const u = new URL(url);
  if (u.protocol !== 'https:') throw new UnsafeAddressError('must be an https URL');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    if (!isPublicAddress(host)) throw new UnsafeAddressError('must not point to a private, loopback or link-local address');
    return;
  }
  await new Promise<void>((resolve, reject) =>
    publicOnlyLookup(host, { all: true }, (err) => (err ? reject(err instanceof UnsafeAddressError ? new UnsafeAddressError('must not resolve to a private, loopback or link-local address') : new UnsafeAddressError('host name does not resolve')) : resolve())),
  );
}
