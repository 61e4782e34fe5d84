// node scripts/precompress.mjs DIR: writes a Brotli (.br) and a gzip (.gz) copy beside every
// text asset in DIR, once at build time, so the server sends them without compressing per request.
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dir = process.argv[2];
if (!dir) {
  console.error("Usage: node scripts/precompress.mjs DIR");
  process.exit(2);
}
const TEXT = new Set([".js", ".css", ".html", ".svg", ".json", ".txt", ".webmanifest", ".xml"]);
let saved = 0;
for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
  const file = path.join(entry.parentPath, entry.name);
  if (!entry.isFile() || !TEXT.has(path.extname(file))) continue;
  const content = await readFile(file);
  if (content.length < 1024) continue;
  const brotli = brotliCompressSync(content, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
  });
  await writeFile(`${file}.br`, brotli);
  await writeFile(`${file}.gz`, gzipSync(content, { level: 9 }));
  saved += content.length - brotli.length;
}
console.log(`precompressed ${dir}: ${Math.round(saved / 1024)} KB less to send with Brotli`);
