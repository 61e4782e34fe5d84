import type Sharp from "sharp";
import { randomUUID } from "node:crypto";
import { arrayContains, eq } from "drizzle-orm";
import { fileTypeFromBuffer } from "file-type";
import { MAX_IMAGE_BYTES, type Role } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { submissions, uploads } from "../../db/schema/index.ts";
import { AppError } from "../../lib/errors.ts";

const ACCEPTED_IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif"]);
/** Refuses decompression bombs: a small file that would decode to a huge bitmap. */
const MAX_INPUT_PIXELS = 40_000_000;
const MAX_SIDE = 1200;

export interface ProcessedImage {
  bytes: Buffer;
  contentType: "image/webp";
}

/**
 * sharp (libvips and its threads, about 20 MB resident) loads with the first image, not at start;
 * once: each import() call resolves the module again, 0.1 ms of CPU a request (docs/performance.md).
 */
let sharpLoaded: Promise<typeof Sharp> | undefined;
const loadSharp = () =>
  (sharpLoaded ??= import("sharp").then(
    (module) => module.default,
    (error: unknown) => {
      sharpLoaded = undefined; // tried again with the next image
      throw error;
    },
  ));

/**
 * Product rule R18: accepts only real images, judged by their content, and re-encodes
 * them (WebP, metadata stripped, at most 1200 px a side).
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  if (input.length > MAX_IMAGE_BYTES) throw new AppError("TOO_LARGE", "Images must be at most 5 MB");
  const sniffed = await fileTypeFromBuffer(input);
  if (!sniffed || !ACCEPTED_IMAGE_TYPES.has(sniffed.mime)) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "The photo must be a JPEG, PNG, WebP, GIF or AVIF image");
  }
  const sharp = await loadSharp();
  try {
    const bytes = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
    return { bytes, contentType: "image/webp" };
  } catch {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "The image could not be read");
  }
}

/**
 * A stored image at most `width` pixels wide (a page's srcset asks for a phone's thumbnail, not
 * the 1200 px original); one already as narrow is sent as it is. Each width is asked for once
 * per browser: the answer is cached for a year, and by the app's service worker.
 */
export async function narrowedImage(bytes: Buffer, width: number): Promise<Buffer> {
  const sharp = await loadSharp();
  const image = sharp(bytes);
  const { width: stored = 0 } = await image.metadata();
  if (stored <= width) return bytes;
  return image.resize({ width }).webp({ quality: 75 }).toBuffer();
}

/** How long fetching a photo from elsewhere (a Google profile photo) may take, start to end. */
const REMOTE_IMAGE_TIMEOUT_MS = 5000;

/**
 * Downloads an image named by a trusted party (the photo in a verified Google ID token),
 * refusing anything but http(s), a non-2xx answer, more than 5 MB, or more than five
 * seconds. Answers the raw bytes, for processImage to judge.
 */
export async function fetchRemoteImage(url: string): Promise<Buffer> {
  const target = URL.canParse(url) ? new URL(url) : null;
  if (!target || (target.protocol !== "https:" && target.protocol !== "http:"))
    throw new AppError("VALIDATION", "The photo address is not a web address");
  const signal = AbortSignal.timeout(REMOTE_IMAGE_TIMEOUT_MS);
  const response = await fetch(target, { signal, redirect: "follow" });
  if (!response.ok || !response.body)
    throw new AppError("VALIDATION", `The photo could not be fetched (HTTP ${response.status})`);
  if (Number(response.headers.get("content-length") ?? 0) > MAX_IMAGE_BYTES) {
    await response.body.cancel();
    throw new AppError("TOO_LARGE", "Images must be at most 5 MB");
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  // The length header may be absent or wrong: count what really arrives.
  // Node's fetch types its body loosely; it yields bytes.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > MAX_IMAGE_BYTES) {
      await reader.cancel();
      throw new AppError("TOO_LARGE", "Images must be at most 5 MB");
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks);
}

/** Stores a processed image and returns the URL it is served from. */
export async function storeImage(db: Database, image: ProcessedImage): Promise<string> {
  const key = `${randomUUID()}.webp`;
  await db
    .insert(uploads)
    .values({ key, contentType: image.contentType, size: image.bytes.length, bytes: image.bytes });
  return `/uploads/${key}`;
}

/**
 * Who may fetch an upload: anyone (task images, profile photos), or, for a submission's
 * screenshots (which show workers' accounts and sometimes their faces), its worker, the task's
 * buyer and admins.
 */
export type UploadViewers = "anyone" | { workerId: string; buyerId: string };

/** A stored image and who may fetch it, or undefined when there is none under `key`. */
export async function findUpload(db: Database, key: string) {
  const [row] = await db
    .select({
      contentType: uploads.contentType,
      bytes: uploads.bytes,
      workerId: submissions.workerId,
      buyerId: submissions.buyerId,
    })
    .from(uploads)
    .leftJoin(submissions, arrayContains(submissions.attachments, [`/uploads/${key}`]))
    .where(eq(uploads.key, key));
  if (!row) return undefined;
  const { workerId, buyerId } = row;
  const viewers: UploadViewers = workerId && buyerId ? { workerId, buyerId } : "anyone";
  return { contentType: row.contentType, bytes: row.bytes, viewers };
}

export function mayFetch(viewers: UploadViewers, user: { id: string; role: Role } | null): boolean {
  if (viewers === "anyone") return true;
  return (
    user !== null && (user.role === "admin" || user.id === viewers.workerId || user.id === viewers.buyerId)
  );
}
