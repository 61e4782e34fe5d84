// Draws the landing page's pictures (vector scenes rendered to WebP) into
// apps/web/public/images. Run once after changing them: node scripts/generate-images.mjs
import { mkdirSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";

const out = path.resolve(import.meta.dirname, "../apps/web/public/images");
mkdirSync(out, { recursive: true });

const banner = (from, to, shapes) => `
<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="640" viewBox="0 0 1600 640">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="1600" height="640" fill="url(#g)"/>
  ${shapes}
</svg>`;

const coins = Array.from({ length: 9 }, (_, i) => {
  const x = 1050 + (i % 3) * 130 + (i % 2) * 30;
  const y = 150 + Math.floor(i / 3) * 130;
  return `<circle cx="${x}" cy="${y}" r="52" fill="#fbbf24" stroke="#b45309" stroke-width="8"/><rect x="${x - 8}" y="${y - 28}" width="16" height="56" rx="6" fill="#b45309"/>`;
}).join("");

const checklist = Array.from({ length: 4 }, (_, i) => {
  const y = 170 + i * 95;
  return `<rect x="1000" y="${y}" width="420" height="70" rx="16" fill="#ffffff" opacity="0.92"/>
  <circle cx="1045" cy="${y + 35}" r="20" fill="#10b981"/><path d="M1035 ${y + 35} l8 8 l14 -16" stroke="#fff" stroke-width="6" fill="none" stroke-linecap="round"/>
  <rect x="1085" y="${y + 26}" width="${260 - i * 30}" height="18" rx="9" fill="#cbd5e1"/>`;
}).join("");

const people = Array.from({ length: 12 }, (_, i) => {
  const x = 980 + (i % 4) * 130;
  const y = 150 + Math.floor(i / 4) * 150;
  const colour = ["#f472b6", "#60a5fa", "#fbbf24", "#34d399"][i % 4];
  return `<circle cx="${x}" cy="${y}" r="34" fill="${colour}"/><path d="M${x - 52} ${y + 100} a52 52 0 0 1 104 0 z" fill="${colour}"/>`;
}).join("");

const avatar = (background, skin, hair) => `
<svg xmlns="http://www.w3.org/2000/svg" width="192" height="192" viewBox="0 0 192 192">
  <rect width="192" height="192" fill="${background}"/>
  <path d="M28 192 a68 60 0 0 1 136 0 z" fill="#1f2937" opacity="0.85"/>
  <circle cx="96" cy="82" r="40" fill="${skin}"/>
  <path d="M56 78 a40 40 0 0 1 80 0 q-20 -22 -40 -14 q-20 -8 -40 14 z" fill="${hair}"/>
</svg>`;

const jobs = [
  ["banner-earn", banner("#0f766e", "#134e4a", coins)],
  ["banner-tasks", banner("#1d4ed8", "#312e81", checklist)],
  ["banner-community", banner("#7c3aed", "#4c1d95", people)],
  ["avatar-1", avatar("#fde68a", "#c68642", "#3b2414")],
  ["avatar-2", avatar("#bfdbfe", "#f1c27d", "#6b4423")],
  ["avatar-3", avatar("#bbf7d0", "#8d5524", "#111827")],
  ["avatar-4", avatar("#fbcfe8", "#ffdbac", "#b45309")],
  ["avatar-5", avatar("#ddd6fe", "#e0ac69", "#1f2937")],
];

for (const [name, svg] of jobs) {
  const file = path.join(out, `${name}.webp`);
  await sharp(Buffer.from(svg)).webp({ quality: 80 }).toFile(file);
  console.log(file);
}
