import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { createApiKeySchema, MAX_API_KEYS_PER_BUYER, type ApiKey } from "@taskmint/shared";
import { Field, Form, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { ListSkeleton } from "../../../components/ui/PageSkeleton.tsx";
import { EmptyState, ErrorState } from "../../../components/ui/States.tsx";
import { When } from "../../../components/ui/When.tsx";
import { ApiError, errorMessage } from "../../../lib/api.ts";
import { useConfirmedDeletion } from "../../../lib/useConfirmedDeletion.ts";
import { useCreateApiKey, useRevokeApiKey } from "../api.ts";
import { developerQueries } from "../queries.ts";
import { OneTimeSecret } from "./OneTimeSecret.tsx";
import { SectionCard } from "../../../components/ui/SectionCard.tsx";

const LIMIT_MESSAGE = `You have ${MAX_API_KEYS_PER_BUYER} keys, the most one account may hold. Revoke one you no longer use, then create the new one.`;

function CreateKeyForm({ full }: { full: boolean }) {
  const form = useZodForm(createApiKeySchema, { name: "" });
  const create = useCreateApiKey();
  const [created, setCreated] = useState<string | null>(null);
  return (
    <>
      <Form
        form={form}
        onSubmit={async ({ name }) => {
          setCreated((await create.mutateAsync(name)).key);
          form.reset();
        }}
        onError={(error) =>
          form.setError("root", {
            message:
              error instanceof ApiError && error.code === "LIMIT_REACHED"
                ? LIMIT_MESSAGE
                : errorMessage(error, "Failed to create the key"),
          })
        }
        className="flex flex-col gap-2"
        aria-label="Create an API key"
      >
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1 basis-56">
            <Field
              name="name"
              label="Key name"
              hint={<span className="whitespace-normal">Say where it runs: “Nightly import”, “CI”.</span>}
              maxLength={100}
            />
          </div>
          <SubmitButton className="btn btn-primary mb-1 sm:mb-7" disabled={full}>
            Create key
          </SubmitButton>
        </div>
        {full && <p className="text-sm text-warning-content">{LIMIT_MESSAGE}</p>}
        <FormError />
      </Form>
      <OneTimeSecret
        label="Key"
        secret={created}
        title="Your new API key"
        what="this key"
        onClose={() => setCreated(null)}
      />
    </>
  );
}

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: () => void }) {
  return (
    <tr>
      <td className="font-medium break-words">{apiKey.name}</td>
      <td className="font-mono text-sm">{apiKey.prefix}…</td>
      <td>
        <When iso={apiKey.created_at} />
      </td>
      <td>{apiKey.last_used_at ? <When iso={apiKey.last_used_at} /> : "Never used"}</td>
      <td>
        <button
          type="button"
          className="btn btn-outline btn-error btn-sm"
          aria-label={`Revoke ${apiKey.name}`}
          onClick={onRevoke}
        >
          Revoke
        </button>
      </td>
    </tr>
  );
}

/** The buyer's API keys: create one (shown once), see each one's use, revoke. */
export function ApiKeysCard() {
  const keys = useQuery(developerQueries.apiKeys());
  const revoking = useConfirmedDeletion(useRevokeApiKey(), {
    variables: (apiKey: ApiKey) => apiKey.id,
    success: (_, apiKey) => `Revoked ${apiKey.name}`,
    failure: "Failed to revoke the key",
  });
  const count = keys.data?.length ?? 0;
  return (
    <SectionCard id="api-keys" heading="API keys">
      <p className="text-sm text-base-content/70">
        A program sends a key as <code>Authorization: Bearer tm_…</code> and acts as you: it may post tasks,
        read them and decide on submissions, spending your coins. You may hold up to {MAX_API_KEYS_PER_BUYER}{" "}
        keys{keys.isSuccess && ` (you have ${count})`}.
      </p>
      <CreateKeyForm full={count >= MAX_API_KEYS_PER_BUYER} />
      {keys.isPending ? (
        <ListSkeleton rows={2} />
      ) : keys.isError ? (
        <ErrorState
          message={errorMessage(keys.error, "Could not load your keys")}
          onRetry={() => void keys.refetch()}
        />
      ) : count === 0 ? (
        <EmptyState title="No API keys yet.">Create one above to call the API from a program.</EmptyState>
      ) : (
        <DataTable headers={["Name", "Starts with", "Created", "Last used", ""]}>
          {keys.data.map((apiKey) => (
            <KeyRow key={apiKey.id} apiKey={apiKey} onRevoke={() => revoking.ask(apiKey)} />
          ))}
        </DataTable>
      )}
      <ConfirmDialog
        deletion={revoking}
        title={(apiKey) => `Revoke ${apiKey.name}?`}
        message={() =>
          "Programs using this key are refused from their next request on. This cannot be undone."
        }
        confirmLabel={() => "Yes, revoke it"}
      />
    </SectionCard>
  );
}
