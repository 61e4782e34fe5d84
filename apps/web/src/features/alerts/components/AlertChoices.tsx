import type { SavedSearchAlert } from "@taskmint/shared";
import type { PushDeviceState } from "../push.ts";

type Channel = keyof SavedSearchAlert;

const CHANNELS: [Channel, string][] = [
  ["bell", "Bell"],
  ["mail", "Mail"],
  ["push", "Phone"],
];

/**
 * How to hear of a search's new tasks, as checkboxes. Phone is offered only where the browser
 * can show pushes; blocked, it says where to change that.
 */
export function AlertChoices({
  legend,
  alert,
  push,
  disabled = false,
  onChange,
}: {
  legend: string;
  alert: SavedSearchAlert;
  /** This device's phone notifications; undefined while read. */
  push: PushDeviceState | undefined;
  disabled?: boolean;
  onChange: (channel: Channel, checked: boolean) => void;
}) {
  const channels = CHANNELS.filter(([channel]) => channel !== "push" || push !== "unsupported");
  return (
    <fieldset className="fieldset py-0">
      <legend className="fieldset-legend">{legend}</legend>
      <div className="flex flex-wrap gap-x-5">
        {channels.map(([channel, label]) => (
          <label key={channel} className="flex min-h-11 cursor-pointer items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-5 shrink-0 accent-primary"
              checked={alert[channel]}
              disabled={disabled || (channel === "push" && (push === undefined || push === "blocked"))}
              onChange={(event) => onChange(channel, event.target.checked)}
            />
            {label}
          </label>
        ))}
      </div>
      {push === "blocked" && (
        <p className="text-xs text-base-content/70">
          Phone notifications are blocked in your browser settings.
        </p>
      )}
    </fieldset>
  );
}
