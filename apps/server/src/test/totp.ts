import { createHmac } from "node:crypto";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Bytes(text: string): Buffer {
  let bits = "";
  for (const char of text.replace(/=+$/, "").toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, "0");
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => Number.parseInt(byte, 2)));
}

/** The secret of an otpauth:// address, as the authenticator app reads it from the QR code. */
export function totpSecretOf(otpauthUri: string): string {
  const secret = new URL(otpauthUri).searchParams.get("secret");
  if (!secret) throw new Error(`no secret in ${otpauthUri}`);
  return secret;
}

/**
 * The 6-digit code an authenticator app shows for a base32 secret at `at` (RFC 6238: HMAC-SHA1,
 * 30-second steps), computed here without the auth library so the tests check its codes.
 */
export function totpCode(base32Secret: string, at = new Date()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at.getTime() / 30_000)));
  const mac = createHmac("sha1", base32Bytes(base32Secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 1_000_000).padStart(6, "0");
}
