import { categoryName, type TaskCategory } from "@taskmint/shared";

// Decision 036: a task posted by a program (an API key or a batch) needs no image of its own;
// its category's picture, drawn here, stands in.

const colours: Record<TaskCategory, string> = {
  data_entry: "#2563eb",
  surveys: "#7c3aed",
  social_media: "#db2777",
  app_testing: "#0891b2",
  writing_reviews: "#ca8a04",
  research: "#16a34a",
  transcription: "#ea580c",
  other: "#475569",
};

/** Where a category's picture is served (GET /api/categories/:id/picture). */
export const categoryPictureUrl = (category: TaskCategory) => `/api/categories/${category}/picture`;

/** The category's picture: its name on its colour, 800 x 450 like a task image. */
export function categoryPicture(category: TaskCategory) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450" viewBox="0 0 800 450"><rect width="800" height="450" fill="${colours[category]}"/><text x="400" y="240" font-family="system-ui, sans-serif" font-size="56" fill="#fff" text-anchor="middle">${categoryName(category)}</text></svg>`;
}
