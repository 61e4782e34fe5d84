import { SaveSearchButton } from "../../features/alerts/components/SaveSearchButton.tsx";
import { TaskListPage } from "../../features/tasks/routes/TaskListPage.tsx";

/** The worker's task list, whose search can be saved to hear of new matches (issue 36). */
export function WorkerTaskListPage() {
  return (
    <TaskListPage
      searchActions={({ q, category, min_reward }) => (
        <SaveSearchButton filters={{ q, category, min_reward }} />
      )}
    />
  );
}
