import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { Providers } from "./app/providers.tsx";
import { router } from "./app/router.tsx";
import { applyChosenTheme } from "./components/ui/ThemeSwitch.tsx";
import "./index.css";

applyChosenTheme();

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

// A transition lets React render the first page in slices that yield to the browser, not one long task.
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
});
