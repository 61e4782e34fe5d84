import { useState } from "react";
import { useFormContext, useFormState } from "react-hook-form";
import { createWebhookSchema, webhookEvents } from "@taskmint/shared";
import { Field, Form, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { ApiError, errorMessage } from "../../../lib/api.ts";
import { useCreateWebhook } from "../api.ts";
import { OneTimeSecret } from "./OneTimeSecret.tsx";

/** The events as checkboxes, one group with its legend and its error. */
function EventChoices() {
  const { register } = useFormContext();
  const error = useFormState({ name: "events" }).errors.events?.message;
  return (
    <fieldset className="fieldset" aria-describedby={error ? "events-error" : undefined}>
      <legend className="fieldset-legend">Events</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {webhookEvents.map((event) => (
          <label key={event} className="flex min-w-0 items-center gap-2">
            <input type="checkbox" className="checkbox checkbox-sm" value={event} {...register("events")} />
            <span className="font-mono text-sm break-all">{event}</span>
          </label>
        ))}
      </div>
      {typeof error === "string" && (
        <p id="events-error" className="text-sm text-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** Registers an endpoint; its signing secret is shown once. */
export function AddWebhookForm({ full }: { full: boolean }) {
  const form = useZodForm(createWebhookSchema, { url: "", events: [...webhookEvents] });
  const create = useCreateWebhook();
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <>
      <Form
        form={form}
        onSubmit={async (values) => {
          setSecret((await create.mutateAsync(values)).secret);
          form.reset();
        }}
        onError={(error) =>
          form.setError("root", {
            message:
              error instanceof ApiError && error.code === "LIMIT_REACHED"
                ? "You have as many endpoints as one account may hold. Delete one you no longer use first."
                : errorMessage(error, "Failed to add the endpoint"),
          })
        }
        className="flex flex-col gap-2 rounded-box border border-base-300 p-3 sm:p-4"
        aria-label="Add a webhook endpoint"
      >
        <Field
          name="url"
          label="Endpoint URL"
          type="url"
          inputMode="url"
          placeholder="https://example.com/taskmint"
          hint={
            // daisyUI's hint keeps to one line: this one wraps on phones.
            <span className="whitespace-normal">
              An https address of yours; each event is posted to it, signed.
            </span>
          }
        />
        <EventChoices />
        <FormError />
        <div>
          <SubmitButton disabled={full}>Add endpoint</SubmitButton>
        </div>
      </Form>
      <OneTimeSecret
        label="Signing secret"
        secret={secret}
        title="Your endpoint's signing secret"
        what="this secret (your receiver checks each delivery's signature with it)"
        onClose={() => setSecret(null)}
      />
    </>
  );
}
