import { Pencil } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { toast } from "react-toastify";
import { z } from "zod";
import { textSchema, type SavedSearch, type SavedSearchAlert } from "@taskmint/shared";
import { Field, Form, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { DeleteButton } from "../../../components/ui/DeleteButton.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useMarkSavedSearchSeen, useUpdateSavedSearch } from "../api.ts";
import { pushFailure, type usePushDevice } from "../push.ts";
import { filtersOf, searchInWords, taskListOf } from "../searchWords.ts";
import { AlertChoices } from "./AlertChoices.tsx";

const renameSchema = z.object({ name: textSchema("Name", { max: 60 }) });

/** The name, editable in place. */
function RenameForm({ search, onDone }: { search: SavedSearch; onDone: () => void }) {
  const form = useZodForm(renameSchema, { name: search.name });
  const update = useUpdateSavedSearch();
  return (
    <Form
      form={form}
      onSubmit={async ({ name }) => {
        await update.mutateAsync({ id: search.id, name });
        toast.success(`Renamed to ${name}`);
        onDone();
      }}
      className="flex flex-col gap-2"
      aria-label={`Rename ${search.name}`}
    >
      <Field
        name="name"
        id={`name-${search.id}`}
        label="New name"
        maxLength={60}
        autoComplete="off"
        autoFocus
      />
      <FormError />
      <div className="flex flex-wrap gap-2">
        <SubmitButton className="btn btn-primary btn-sm">Save name</SubmitButton>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onDone}>
          Cancel
        </button>
      </div>
    </Form>
  );
}

/**
 * One saved search: its name, what it looks for, its new tasks, how the worker hears of them
 * (changed at once), and its actions. Showing its tasks marks them seen.
 */
export function SavedSearchItem({
  search,
  push,
  onDelete,
}: {
  search: SavedSearch;
  push: ReturnType<typeof usePushDevice>;
  onDelete: () => void;
}) {
  const [renaming, setRenaming] = useState(false);
  const [pushProblem, setPushProblem] = useState<string | null>(null);
  const update = useUpdateSavedSearch();
  const markSeen = useMarkSavedSearchSeen();
  const changeAlert = async (channel: keyof SavedSearchAlert, checked: boolean) => {
    setPushProblem(null);
    try {
      if (channel === "push" && checked && push.state !== "on") await push.turnOn.mutateAsync();
    } catch (error) {
      setPushProblem(pushFailure(error));
      return;
    }
    update.mutate(
      { id: search.id, alert: { ...search.alert, [channel]: checked } },
      { onError: (error) => toast.error(errorMessage(error, "Could not save your choice, try again")) },
    );
  };
  const fresh = search.new_matches;
  return (
    <li className="flex flex-col gap-2 px-4 py-4 sm:px-6" aria-label={search.name}>
      {renaming ? (
        <RenameForm search={search} onDone={() => setRenaming(false)} />
      ) : (
        <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
          <div className="min-w-0 flex-1 basis-48">
            <h3 className="flex flex-wrap items-center gap-2 font-semibold break-words">
              <span className="min-w-0 break-words">{search.name}</span>
              {fresh > 0 && <span className="badge badge-primary badge-sm shrink-0">{fresh} new</span>}
            </h3>
            <p className="text-sm break-words text-base-content/70">
              {searchInWords(filtersOf(search), true)}
            </p>
          </div>
          <Link
            to={taskListOf(filtersOf(search))}
            className="btn btn-primary btn-sm"
            aria-label={`Show tasks for ${search.name}`}
            onClick={() => markSeen.mutate(search.id)}
          >
            Show tasks
          </Link>
        </div>
      )}
      <AlertChoices
        legend="Tell me by"
        alert={search.alert}
        push={push.state}
        disabled={update.isPending || push.turnOn.isPending}
        onChange={(channel, checked) => void changeAlert(channel, checked)}
      />
      {pushProblem && (
        <p className="text-sm text-error" role="alert">
          {pushProblem}
        </p>
      )}
      {!renaming && (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            aria-label={`Rename ${search.name}`}
            onClick={() => setRenaming(true)}
          >
            <Pencil className="size-4" aria-hidden="true" />
            Rename
          </button>
          <DeleteButton what={search.name} onClick={onDelete} />
        </div>
      )}
    </li>
  );
}
