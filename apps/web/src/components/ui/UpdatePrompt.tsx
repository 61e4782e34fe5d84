import { RefreshCw } from "lucide-react";
import { useState } from "react";
import { reloadIntoUpdate, useUpdateWaiting } from "../../lib/pwa.ts";

/**
 * Offers a new version once its service worker has installed (lib/pwa.ts): the page keeps its
 * own build until the user reloads into the new one, so no page ever mixes the two.
 */
export function UpdatePrompt() {
  const waiting = useUpdateWaiting();
  const [reloading, setReloading] = useState(false);
  if (!waiting) return null;
  const reload = () => {
    setReloading(true);
    void reloadIntoUpdate();
  };
  return (
    <div className="fixed bottom-4 left-4 z-50 max-w-[calc(100vw-2rem)] sm:max-w-lg">
      <div role="status" className="alert alert-info flex flex-wrap shadow-lg" data-testid="update-prompt">
        <RefreshCw className="size-5 shrink-0" aria-hidden="true" />
        <span className="min-w-0 flex-1 whitespace-normal">
          A new version of TaskMint is ready. Reload to update.
        </span>
        <button
          type="button"
          className="btn btn-sm btn-primary min-h-11"
          onClick={reload}
          disabled={reloading}
        >
          Reload
        </button>
      </div>
    </div>
  );
}
