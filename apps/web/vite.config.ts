import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";

const api = "http://localhost:3000";
/** The light theme's primary (the logo's square) and base colour, index.css's "taskmint". */
const BRAND_TEAL = "#0f766e";
const BASE_WHITE = "#ffffff";

/**
 * The build's identity, from its sources: the answers a device kept (lib/offline.ts) are
 * thrown away when the code that reads them changes.
 */
function sourcesHash() {
  const hash = createHash("sha256");
  for (const folder of ["src", "../../packages/shared/src"].map((dir) =>
    path.resolve(import.meta.dirname, dir),
  ))
    for (const file of readdirSync(folder, { recursive: true, encoding: "utf8" }).sort())
      if (/\.tsx?$/.test(file)) hash.update(file).update(readFileSync(path.join(folder, file)));
  return hash.digest("hex").slice(0, 16);
}

/**
 * The service worker precaches the shell only: index.html, the scripts and stylesheet it names,
 * and the manifest. Each page's own chunk is cached by the worker the
 * first time it loads (src/sw.ts), so a phone never downloads the admin's and buyer's pages it
 * does not open, and a page visited once opens offline.
 */
function shellOnly<Entry extends { url: string }>(entries: Entry[]) {
  const shell = readFileSync(path.resolve(import.meta.dirname, "dist/index.html"), "utf8");
  return {
    manifest: entries.filter(({ url }) => !url.startsWith("assets/") || shell.includes(`/${url}"`)),
    warnings: [],
  };
}

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // The installable app (decision 039): our own worker, src/sw.ts, with the build's file list
    // injected; lib/pwa.ts registers it after the page has loaded, and a new version waits for
    // the user's "Reload".
    VitePWA({
      strategies: "injectManifest",
      srcDir: "src",
      filename: "sw.ts",
      registerType: "prompt",
      injectRegister: false,
      // The launcher keeps the installed app's icons; precached too, they cost a first visit 38 KB.
      includeManifestIcons: false,
      manifest: {
        id: "/",
        name: "TaskMint",
        short_name: "TaskMint",
        description: "Earn coins for small online tasks, or get your micro-tasks done.",
        // Sends each role to its home (router.tsx's RoleHome), or to sign-in.
        start_url: "/dashboard",
        scope: "/",
        display: "standalone",
        theme_color: BRAND_TEAL,
        background_color: BASE_WHITE,
        icons: [
          { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
      },
      injectManifest: {
        globPatterns: ["**/*.{js,css,html}"],
        // Prerendered pages come from the network when online (they carry data); offline, the
        // shell (index.html) stands in for every page.
        globIgnores: ["prerendered/**"],
        manifestTransforms: [shellOnly],
      },
    }),
  ],
  define: { __APP_BUILD__: JSON.stringify(sourcesHash()) },
  server: {
    port: 5173,
    proxy: { "/api": api, "/uploads": api, "/healthz": api },
  },
  build: { outDir: "dist", emptyOutDir: true },
  // The server-side build (src/prerender.tsx, which the server loads to render All Tasks) takes
  // only the icons and router parts it uses, in their production builds: loaded from node_modules,
  // lucide-react whole and react-router's development build held about 40 MB in the server.
  ssr: { noExternal: ["lucide-react", "react-router"] },
});
