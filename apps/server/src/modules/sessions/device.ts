import type { DeviceKind } from "@taskmint/shared";

/**
 * Browsers in the order to test them: Edge and Opera also say "Chrome", and Chrome also says
 * "Safari". The pattern's first group is the major version, where the user agent gives one.
 */
const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, "Edge"],
  [/(?:OPR|Opera)\/?(\d+)?/, "Opera"],
  [/SamsungBrowser\/(\d+)/, "Samsung Internet"],
  [/(?:Firefox|FxiOS)\/(\d+)/, "Firefox"],
  [/(?:Chrome|CriOS|Chromium)\/(\d+)/, "Chrome"],
  [/Version\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\/|Safari\//, "Safari"],
];

/** Systems in the order to test them: Android also says "Linux", iOS also says "like Mac OS X". */
const SYSTEMS: [RegExp, string][] = [
  [/Android (\d+)?/, "Android"],
  [/(?:iPhone|iPad|iPod)(?:.*? OS (\d+))?/, "iOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

const find = (userAgent: string, table: [RegExp, string][], withVersion: boolean) => {
  for (const [pattern, name] of table) {
    const match = pattern.exec(userAgent);
    if (match) return { name, full: withVersion && match[1] ? `${name} ${match[1]}` : name };
  }
  return null;
};

/** What a user agent says of its device: browser and system with their major versions, and its kind. */
export function describeDevice(userAgent: string | null): {
  browser: string | null;
  system: string | null;
  kind: DeviceKind | null;
} {
  if (!userAgent) return { browser: null, system: null, kind: null };
  const browser = find(userAgent, BROWSERS, true);
  const system = find(userAgent, SYSTEMS, true);
  const kind: DeviceKind | null = /iPad|Tablet/.test(userAgent)
    ? "tablet"
    : /Mobi|iPhone|iPod/.test(userAgent)
      ? "phone"
      : system?.name === "Android"
        ? "tablet"
        : system
          ? "computer"
          : null;
  return { browser: browser?.full ?? null, system: system?.full ?? null, kind };
}

/** A readable name for the device of a user agent, e.g. "Chrome on Android"; "Unknown device" when it says nothing known. */
export function deviceName(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser = find(userAgent, BROWSERS, false)?.name;
  const system = find(userAgent, SYSTEMS, false)?.name;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown device";
}
