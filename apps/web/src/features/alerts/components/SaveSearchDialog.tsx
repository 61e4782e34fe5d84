import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { toast } from "react-toastify";
import { z } from "zod";
import { MAX_SAVED_SEARCHES, textSchema, type SavedSearchAlert } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Field, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { FormModal } from "../../../components/form/FormModal.tsx";
import { Modal } from "../../../components/ui/Modal.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { ApiError, errorMessage } from "../../../lib/api.ts";
import { useCreateSavedSearch } from "../api.ts";
import { pushFailure, usePushDevice } from "../push.ts";
import { alertsQueries } from "../queries.ts";
import { searchInWords, type SearchFilters } from "../searchWords.ts";
import { AlertChoices } from "./AlertChoices.tsx";

const NAME_MAX = 60;
const nameSchema = z.object({ name: textSchema("Name", { max: NAME_MAX }) });

const LIMIT_TEXT = `You have ${MAX_SAVED_SEARCHES} saved searches, as many as one account may keep. Delete one you no longer need to save this one.`;

/** The limit, said instead of a form that would fail. */
function LimitReached({ onClose }: { onClose: () => void }) {
  return (
    <Modal open title="Save this search" onClose={onClose}>
      <p>{LIMIT_TEXT}</p>
      <p className="mt-3">
        <Link to={paths.dashboard.savedSearches} className="link link-primary">
          Go to your saved searches
        </Link>
      </p>
    </Modal>
  );
}

/** The name (from the search) and how to hear of new matches: the bell by default. */
function SaveSearchForm({ filters, onClose }: { filters: SearchFilters; onClose: () => void }) {
  const form = useZodForm(nameSchema, { name: searchInWords(filters).slice(0, NAME_MAX) });
  const [alert, setAlert] = useState<SavedSearchAlert>({ bell: true, mail: false, push: false });
  const [pushProblem, setPushProblem] = useState<string | null>(null);
  const push = usePushDevice();
  const create = useCreateSavedSearch();
  const choose = async (channel: keyof SavedSearchAlert, checked: boolean) => {
    setAlert((now) => ({ ...now, [channel]: checked }));
    if (channel !== "push" || !checked || push.state === "on") return;
    setPushProblem(null);
    try {
      await push.turnOn.mutateAsync();
    } catch (error) {
      setAlert((now) => ({ ...now, push: false }));
      setPushProblem(pushFailure(error));
    }
  };
  const save = async ({ name }: { name: string }) => {
    const { q, category, min_reward } = filters;
    await create.mutateAsync({ q, category, min_reward, name, alert });
    toast.success(`Search saved: ${name}`);
    onClose();
  };
  return (
    <FormModal
      form={form}
      onSubmit={save}
      onError={(error) =>
        form.setError("root", {
          message:
            error instanceof ApiError && error.code === "LIMIT_REACHED"
              ? LIMIT_TEXT
              : errorMessage(error, "Could not save the search, try again"),
        })
      }
      title="Save this search"
      onClose={onClose}
      actions={<SubmitButton disabled={push.turnOn.isPending}>Save search</SubmitButton>}
    >
      <p className="text-sm">
        New tasks that match <strong className="break-words">{searchInWords(filters, true)}</strong> are
        counted on your Saved searches page, and you hear of them as you choose.
      </p>
      <Field name="name" id="saved-search-name" label="Name" maxLength={NAME_MAX} autoComplete="off" />
      <AlertChoices
        legend="Tell me by"
        alert={alert}
        push={push.state}
        disabled={push.turnOn.isPending}
        onChange={(channel, checked) => void choose(channel, checked)}
      />
      {pushProblem && (
        <p className="text-sm text-error" role="alert">
          {pushProblem}
        </p>
      )}
      <FormError />
    </FormModal>
  );
}

/** The dialog: the form, or the limit when the worker already keeps as many searches as allowed. */
export function SaveSearchDialog({ filters, onClose }: { filters: SearchFilters; onClose: () => void }) {
  const saved = useQuery(alertsQueries.savedSearches());
  if (saved.isPending)
    return (
      <Modal open title="Save this search" onClose={onClose}>
        <Spinner label="Loading your saved searches" />
      </Modal>
    );
  if (saved.isError)
    return (
      <Modal open title="Save this search" onClose={onClose}>
        <ErrorState
          message={errorMessage(saved.error, "Could not load your saved searches")}
          onRetry={() => void saved.refetch()}
        />
      </Modal>
    );
  if (saved.data.length >= MAX_SAVED_SEARCHES) return <LimitReached onClose={onClose} />;
  return <SaveSearchForm filters={filters} onClose={onClose} />;
}
