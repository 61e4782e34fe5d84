import { Moon, Sun } from "lucide-react";
import { useState } from "react";

const STORAGE_KEY = "taskmint-theme";
const THEMES = { light: "taskmint", dark: "taskmint-dark" } as const;
type Choice = keyof typeof THEMES;

function storedChoice(): Choice | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === "light" || value === "dark" ? value : null;
  } catch {
    return null; // storage blocked: follow the system
  }
}

/** Before the first render: the theme the user chose, if any (otherwise the system's, by CSS). */
export function applyChosenTheme() {
  const choice = storedChoice();
  if (choice) document.documentElement.dataset.theme = THEMES[choice];
}

// No window at build time (the prerendered pages): the light theme's button until the app runs.
const systemPrefersDark = () =>
  typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches;
const isDark = () => (storedChoice() ?? (systemPrefersDark() ? "dark" : "light")) === "dark";

/** A header button between the light and dark themes; the choice outlasts the visit. */
export function ThemeSwitch() {
  const [dark, setDark] = useState(isDark);
  const toggle = () => {
    const next: Choice = dark ? "light" : "dark";
    document.documentElement.dataset.theme = THEMES[next];
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // storage blocked: the choice lasts for this page only
    }
    setDark(!dark);
  };
  return (
    <button
      type="button"
      className="btn btn-ghost btn-circle"
      aria-label={dark ? "Use the light theme" : "Use the dark theme"}
      onClick={toggle}
    >
      {dark ? <Sun aria-hidden="true" /> : <Moon aria-hidden="true" />}
    </button>
  );
}
