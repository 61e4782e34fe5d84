import {
  Bug,
  ClipboardList,
  Headphones,
  Keyboard,
  PenLine,
  Search,
  Shapes,
  Share2,
  type LucideIcon,
} from "lucide-react";
import { useState } from "react";
import { categoryName, PICTURE_WIDTHS, type Task, type TaskCategory } from "@taskmint/shared";
import { useDataSaver } from "../../lib/dataSaver.ts";

const CATEGORY_ICONS: Record<TaskCategory, LucideIcon> = {
  data_entry: Keyboard,
  surveys: ClipboardList,
  social_media: Share2,
  app_testing: Bug,
  writing_reviews: PenLine,
  research: Search,
  transcription: Headphones,
  other: Shapes,
};

/** The narrower copies the server makes of a stored picture (`?w=`), as a srcset; none for another address. */
function srcSetOf(url: string) {
  if (!/^(https?:\/\/[^/]+)?\/uploads\//.test(url)) return undefined;
  const joiner = url.includes("?") ? "&" : "?";
  // The stored original is at most 1200 px wide.
  return [...PICTURE_WIDTHS.map((width) => `${url}${joiner}w=${width} ${width}w`), `${url} 1200w`].join(", ");
}

/**
 * A task's picture, sized for where it stands: `sizes` tells the browser its width on screen, so
 * a phone's thumbnail loads a 160 px copy. With the data saver on, no picture is loaded: the
 * category's icon stands in, as it does for a picture that failed to load.
 */
export function TaskPicture({
  task,
  sizes,
  className,
  loading = "lazy",
  fetchPriority = "auto",
}: {
  task: Pick<Task, "task_image_url" | "category">;
  sizes: string;
  className: string;
  loading?: "lazy" | "eager";
  fetchPriority?: "high" | "auto";
}) {
  const saving = useDataSaver();
  // Offline, a picture never loaded before fails: the icon stands in for it too.
  const [failed, setFailed] = useState(false);
  if (saving || failed) {
    const Icon = CATEGORY_ICONS[task.category];
    return (
      <span
        className={`${className} flex items-center justify-center bg-base-200 text-base-content/50`}
        title={categoryName(task.category)}
        data-testid={saving ? "task-picture-saved" : "task-picture-missing"}
      >
        <Icon className="size-1/2 max-h-12 max-w-12" aria-hidden="true" />
      </span>
    );
  }
  return (
    <img
      src={task.task_image_url}
      srcSet={srcSetOf(task.task_image_url)}
      sizes={sizes}
      alt=""
      className={className}
      loading={loading}
      fetchPriority={fetchPriority}
      onError={() => setFailed(true)}
    />
  );
}
