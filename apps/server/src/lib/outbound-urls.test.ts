import { describe, expect, it } from "vitest";
import { AppError } from "./errors.ts";
import { checkOutboundUrl, guardedLookup } from "./outbound-urls.ts";

// Decisions 035 and 038: where a webhook or a push endpoint may point, in production and outside it.

const refused = (url: string, production: boolean) => {
  try {
    checkOutboundUrl(url, production);
    return false;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return true;
  }
};

describe("outbound addresses", () => {
  it("take https anywhere public, and http only to this machine outside production", () => {
    for (const url of [
      "https://hooks.example.com/x",
      "http://127.0.0.1:8080/x",
      "http://localhost/x",
      "http://[::1]/x",
    ])
      expect(refused(url, false), url).toBe(false);
    for (const url of [
      "http://example.com/x",
      "http://10.0.0.1/x",
      "ftp://127.0.0.1/x",
      "https://a:b@example.com/x",
    ])
      expect(refused(url, false), url).toBe(true);
  });

  it("refuse in production every http address and every internal one written as an address", () => {
    expect(refused("https://hooks.example.com/x", true)).toBe(false);
    expect(refused("https://93.184.215.14/x", true)).toBe(false);
    for (const url of [
      "http://127.0.0.1/x",
      "https://127.0.0.1/x",
      "https://localhost/x",
      "https://10.1.2.3/x",
      "https://172.16.0.1/x",
      "https://192.168.1.1/x",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/x",
      "https://0.0.0.0/x",
      "https://[::1]/x",
      "https://[fd00::1]/x",
      "https://[fe80::1]/x",
      "https://[::ffff:127.0.0.1]/x",
    ])
      expect(refused(url, true), url).toBe(true);
  });

  it("refuse in production a name that resolves to an internal address, when connecting", async () => {
    expect(guardedLookup(false)).toBeUndefined();
    const lookup = guardedLookup(true)!;
    const resolve = (hostname: string) =>
      new Promise<string>((done, fail) =>
        lookup(hostname, { family: 0 }, (error, address) =>
          error ? fail(error) : done(JSON.stringify(address)),
        ),
      );
    await expect(resolve("localhost")).rejects.toThrow("internal address");
    await expect(resolve("127.0.0.1")).rejects.toThrow("internal address");
  });
});
