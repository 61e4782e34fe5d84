// Writes the installed app's icons (public/icons/) from public/favicon.svg, with sharp (the
// server's image library). Run again when the logo changes, and commit the PNGs:
//   node apps/web/scripts/make-icons.mjs
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

const publicDir = path.resolve(import.meta.dirname, "../public");
const logo = await readFile(path.join(publicDir, "favicon.svg"));
/** The logo's own square colour: a maskable icon's edge is cropped into the launcher's shape. */
const BRAND_TEAL = "#0f766e";
await mkdir(path.join(publicDir, "icons"), { recursive: true });

const render = (size) => sharp(logo, { density: (72 * size) / 64 }).resize(size, size);
for (const size of [192, 512])
  await render(size)
    .png()
    .toFile(path.join(publicDir, `icons/icon-${size}.png`));
await render(180)
  .flatten({ background: BRAND_TEAL })
  .png()
  .toFile(path.join(publicDir, "icons/apple-touch-icon.png"));
// Maskable: the logo inside the central 80 % (the safe zone every launcher's mask keeps) on a
// full-bleed square of the brand colour.
const inner = Math.round(512 * 0.8);
await sharp({ create: { width: 512, height: 512, channels: 4, background: BRAND_TEAL } })
  .composite([{ input: await render(inner).png().toBuffer(), gravity: "center" }])
  .png()
  .toFile(path.join(publicDir, "icons/maskable-512.png"));
console.log("icons written to", path.relative(process.cwd(), path.join(publicDir, "icons")));
