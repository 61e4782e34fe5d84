import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { Providers } from "./app/providers.tsx";
import { routes } from "./app/router.tsx";
import { applyChosenTheme } from "./components/ui/ThemeSwitch.tsx";
import "./index.css";

applyChosenTheme();

const router = createBrowserRouter(routes);
const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

/** Starts the app; a transition lets React render in slices that yield to the browser. */
function start(container: HTMLElement) {
  startTransition(() => {
    createRoot(container).render(
      <StrictMode>
        <Providers>
          <RouterProvider router={router} />
        </Providers>
      </StrictMode>,
    );
  });
}

// A prerendered page (scripts/prerender.mjs) is painted first; the app takes over after that frame.
if (root.childElementCount > 0) requestAnimationFrame(() => setTimeout(() => start(root)));
else start(root);
