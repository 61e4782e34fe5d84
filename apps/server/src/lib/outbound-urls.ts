import { lookup } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { AppError } from "./errors.ts";

// Where the server may send a request a user named (decisions 035, 038: webhooks, push
// endpoints): https, or http to a loopback address outside production; in production never to
// a loopback, private, link-local or otherwise internal address (server-side request
// forgery), checked on the address each request connects to.

const internal = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const)
  internal.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  // IPv4-mapped addresses (::ffff:a.b.c.d) are checked against the IPv4 rules by BlockList itself.
  ["::", 127],
  ["64:ff9b::", 96],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  internal.addSubnet(network, prefix, "ipv6");

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, "");
const family = (address: string) => (isIP(address) === 6 ? "ipv6" : "ipv4");
const isLoopbackHost = (hostname: string) => {
  const host = bare(hostname);
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isIP(host) !== 0 && loopback.check(host, family(host));
};
const isInternalAddress = (address: string) => internal.check(address, family(address));

/** Refuses a URL no request may go to, naming the body's `field`; `production` as NODE_ENV says. */
export function checkOutboundUrl(raw: string, production: boolean, field = "url"): URL {
  const refused = (message: string) => new AppError("VALIDATION", message, { [field]: message });
  const url = new URL(raw);
  if (url.username || url.password) throw refused("The URL must not carry a user name or password");
  if (url.protocol === "http:") {
    if (production || !isLoopbackHost(url.hostname))
      throw refused("The URL must be https (http only to this machine, outside production)");
  } else if (url.protocol !== "https:") {
    throw refused("The URL must be https");
  }
  if (production) {
    const host = bare(url.hostname);
    if (isLoopbackHost(host) || (isIP(host) !== 0 && isInternalAddress(host)))
      throw refused("The URL must not point to a private or internal address");
  }
  return url;
}

/**
 * In production, a DNS lookup that refuses internal addresses: the check happens on the
 * address the connection uses, so a name that resolves elsewhere later (rebinding) gains nothing.
 */
export function guardedLookup(production: boolean): LookupFunction | undefined {
  if (!production) return undefined;
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 4);
      const list = addresses;
      const bad = list.find((entry) => isInternalAddress(entry.address));
      if (bad || list.length === 0)
        return callback(new Error(`${hostname} resolves to an internal address`), "", 4);
      if (options.all) return callback(null, list, 4);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
