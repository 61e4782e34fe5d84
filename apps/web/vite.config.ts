import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const api = "http://localhost:3000";

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
