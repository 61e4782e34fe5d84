import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { decrypt } from "http_ece";

// A push service standing in for the browsers' (tests only: server tests and e2e): a real HTTP
// server on 127.0.0.1 that checks each push as a push service and a browser would (the VAPID
// signature, RFC 8292; the aes128gcm encryption, RFC 8291) and answers what the test says.

/** A browser's subscription made here: keys from node:crypto, endpoint on the receiver. */
export interface TestDevice {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The device's private half, which decrypts its pushes. */
  ecdh: ECDH;
}

export interface ReceivedPush {
  /** The endpoint's path, which tells the devices apart. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What a push proved once checked: the VAPID public key it was signed with, and its payload. */
export interface CheckedPush {
  signedWith: string;
  subject: string;
  payload: unknown;
}

const part = (token: string) => Buffer.from(token, "base64url");

/** Starts the receiver; `close` stops it. Every push is answered 201 unless `answer` says otherwise. */
export async function startPushReceiver() {
  const received: ReceivedPush[] = [];
  /** The status each path answers with (default 201), set by the test. */
  const answers = new Map<string, number>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "";
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(answers.get(path) ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  let devices = 0;

  return {
    origin,
    received,
    /** A new device: a fresh P-256 key pair and 16 random auth bytes, at a path of its own. */
    newDevice(): TestDevice {
      devices += 1;
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      return {
        endpoint: `${origin}/push/${devices}-${randomBytes(4).toString("hex")}`,
        keys: {
          p256dh: ecdh.getPublicKey().toString("base64url"),
          auth: randomBytes(16).toString("base64url"),
        },
        ecdh,
      };
    },
    /** The device's push service answers `status` from now on. */
    answer(device: TestDevice, status: number) {
      answers.set(new URL(device.endpoint).pathname, status);
    },
    /** The pushes that reached the device, oldest first. */
    pushesTo(device: TestDevice): ReceivedPush[] {
      const path = new URL(device.endpoint).pathname;
      return received.filter((push) => push.path === path);
    },
    /**
     * Checks a push as the push service and the browser would, throwing on any fault: a VAPID
     * JWT (ES256) that verifies with the key in `k`, for this origin, not expired; the body
     * aes128gcm, decrypted with the device's private key and auth secret; answers the payload.
     */
    check(push: ReceivedPush, device: TestDevice): CheckedPush {
      const authorization = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(
        String(push.headers.authorization),
      );
      if (!authorization) throw new Error(`not a VAPID authorization: ${push.headers.authorization}`);
      const [, jwt, key] = authorization as unknown as [string, string, string];
      const [header, claims, signature] = jwt.split(".") as [string, string, string];
      const point = part(key);
      if (point.length !== 65 || point[0] !== 4) throw new Error("k is not an uncompressed P-256 point");
      const publicKey = createPublicKey({
        key: {
          kty: "EC",
          crv: "P-256",
          x: point.subarray(1, 33).toString("base64url"),
          y: point.subarray(33).toString("base64url"),
        },
        format: "jwk",
      });
      if ((JSON.parse(part(header).toString()) as { alg?: string }).alg !== "ES256")
        throw new Error("the JWT is not ES256");
      const signed = verify(
        "sha256",
        Buffer.from(`${header}.${claims}`),
        { key: publicKey, dsaEncoding: "ieee-p1363" },
        part(signature),
      );
      if (!signed) throw new Error("the VAPID signature does not verify");
      const { aud, exp, sub } = JSON.parse(part(claims).toString()) as {
        aud: string;
        exp: number;
        sub: string;
      };
      if (aud !== origin) throw new Error(`the JWT's audience is ${aud}, not ${origin}`);
      if (!(exp * 1000 > Date.now())) throw new Error("the JWT has expired");
      if (push.headers["content-encoding"] !== "aes128gcm")
        throw new Error(`Content-Encoding is ${push.headers["content-encoding"]}`);
      const plain = decrypt(push.body, {
        version: "aes128gcm",
        privateKey: device.ecdh,
        authSecret: device.keys.auth,
      });
      return { signedWith: key, subject: sub, payload: JSON.parse(plain.toString("utf8")) };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type PushReceiver = Awaited<ReturnType<typeof startPushReceiver>>;
