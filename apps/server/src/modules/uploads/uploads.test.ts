import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { uploads, users } from "../../db/schema/index.ts";
import { multipart, testAppPerFile, testImage } from "../../test/harness.ts";

// Hostile uploads, sent where any visitor can send one: the registration photo.

const ctx = testAppPerFile();

async function registerWith(bytes: Buffer, filename: string, type: string) {
  const body = await multipart({
    name: "Mallory",
    role: "worker",
    email: `mallory${Math.random().toString(36).slice(2)}@example.com`,
    password: "Secret12",
    photo: { bytes, filename, type },
  });
  return ctx.app.inject({ method: "POST", url: "/api/register", ...body });
}

const svgWithScript = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><rect width="10" height="10"/></svg>',
);
// Starts like a GIF, carries JavaScript after the header.
const polyglot = Buffer.concat([
  Buffer.from("GIF89a/*\x01\x00\x01\x00\x00\x00\x00*/=alert(1);//"),
  Buffer.alloc(64),
]);

describe("hostile uploads", () => {
  it.each([
    ["a shell script renamed .png", Buffer.from("#!/bin/sh\nrm -rf /\n"), "evil.png", "image/png", 415],
    ["an SVG with script", svgWithScript, "evil.svg", "image/svg+xml", 415],
    ["a GIF/JavaScript polyglot", polyglot, "evil.gif", "image/gif", 415],
    [
      "an HTML page named .jpg",
      Buffer.from("<html><script>alert(1)</script></html>"),
      "evil.jpg",
      "image/jpeg",
      415,
    ],
  ])("refuses %s and keeps no file or account", async (_name, bytes, filename, type, status) => {
    const before = { uploads: await ctx.db.$count(uploads), users: await ctx.db.$count(users) };
    const response = await registerWith(bytes, filename, type);
    expect(response.statusCode).toBe(status);
    expect({ uploads: await ctx.db.$count(uploads), users: await ctx.db.$count(users) }).toEqual(before);
  });

  it("refuses a 50 MB file with 413", async () => {
    const before = await ctx.db.$count(uploads);
    const response = await registerWith(
      Buffer.concat([await testImage(), Buffer.alloc(50 * 1024 * 1024)]),
      "huge.png",
      "image/png",
    );
    expect(response.statusCode).toBe(413);
    expect(await ctx.db.$count(uploads)).toBe(before);
  });

  it("refuses a decompression bomb: a small PNG of 100 million pixels", async () => {
    const bomb = await sharp({
      create: { width: 10_000, height: 10_000, channels: 3, background: "#000000" },
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024);
    const before = await ctx.db.$count(uploads);
    const response = await registerWith(bomb, "bomb.png", "image/png");
    expect(response.statusCode).toBe(415);
    expect(await ctx.db.$count(uploads)).toBe(before);
  });

  it("strips metadata: the stored image carries no EXIF", async () => {
    const withExif = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#123456" } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: "secret location data" } } })
      .toBuffer();
    expect(withExif.includes(Buffer.from("secret location data"))).toBe(true);
    const response = await registerWith(withExif, "me.jpg", "image/jpeg");
    expect(response.statusCode).toBe(201);
    const stored = await ctx.app.inject({
      method: "GET",
      url: response.json<{ user: { photo: string } }>().user.photo,
    });
    expect(stored.rawPayload.includes(Buffer.from("secret location data"))).toBe(false);
    expect(stored.headers["x-content-type-options"]).toBe("nosniff");
  });
});

describe("narrower copies of a stored image (issue 36: srcset)", () => {
  it("serves a public image at 160, 480 and 800 px, a narrower one as it is, and refuses other widths", async () => {
    const wide = await sharp({ create: { width: 1000, height: 500, channels: 3, background: "#0f766e" } })
      .png()
      .toBuffer();
    const response = await registerWith(wide, "wide.png", "image/png");
    expect(response.statusCode).toBe(201);
    const photo = response.json<{ user: { photo: string } }>().user.photo;
    const key = new URL(photo, "http://localhost").pathname;
    const widthOf = async (url: string) => {
      const answer = await ctx.app.inject({ method: "GET", url });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers["content-type"]).toBe("image/webp");
      expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      return (await sharp(answer.rawPayload).metadata()).width;
    };
    expect(await widthOf(key)).toBe(1000);
    expect(await widthOf(`${key}?w=160`)).toBe(160);
    expect(await widthOf(`${key}?w=480`)).toBe(480);
    expect(await widthOf(`${key}?w=800`)).toBe(800);

    const narrow = await registerWith(await testImage(), "narrow.png", "image/png");
    const narrowKey = new URL(narrow.json<{ user: { photo: string } }>().user.photo, "http://localhost")
      .pathname;
    const original = await ctx.app.inject({ method: "GET", url: narrowKey });
    const asked = await ctx.app.inject({ method: "GET", url: `${narrowKey}?w=800` });
    expect(asked.rawPayload.equals(original.rawPayload)).toBe(true);

    for (const width of ["159", "161", "1200", "0", "-160", "abc"]) {
      const refused = await ctx.app.inject({ method: "GET", url: `${key}?w=${width}` });
      expect(refused.statusCode, width).toBe(400);
      expect(refused.json<{ error: { code: string } }>().error.code).toBe("VALIDATION");
    }
  });
});
