import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { toast } from "react-toastify";
import { quietHoursSchema, type QuietHours } from "@taskmint/shared";
import { Field, Form, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { ListSkeleton } from "../../../components/ui/PageSkeleton.tsx";
import { SectionCard } from "../../../components/ui/SectionCard.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useUpdateQuietHours } from "../api.ts";
import { alertsQueries } from "../queries.ts";

/** The browser's own time zone: where the worker most likely sleeps. */
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Every zone the browser knows, with the one chosen among them even if the list lacks it ("UTC"). */
function timeZones(chosen: string): string[] {
  const known = Intl.supportedValuesOf("timeZone");
  return known.includes(chosen) ? known : [chosen, ...known];
}

function QuietHoursFields() {
  const { register, control } = useFormContext<QuietHours>();
  const zone = useWatch({ control, name: "time_zone" });
  return (
    <>
      <label className="flex min-h-11 cursor-pointer items-center justify-between gap-3 font-medium">
        Quiet hours on
        <input
          type="checkbox"
          role="switch"
          className="size-6 shrink-0 cursor-pointer accent-primary"
          {...register("enabled")}
        />
      </label>
      <div className="grid grid-cols-2 gap-3">
        <Field name="from" id="quiet-from" label="From" type="time" />
        <Field name="to" id="quiet-to" label="To" type="time" />
      </div>
      <Field name="time_zone" id="quiet-zone" label="Time zone" as="select">
        {timeZones(zone).map((each) => (
          <option key={each} value={each}>
            {each.replaceAll("_", " ")}
          </option>
        ))}
      </Field>
    </>
  );
}

/** The form's values: never turned on, the zone is this browser's; once on, the one the worker chose. */
const shown = (saved: QuietHours) => (saved.enabled ? saved : { ...saved, time_zone: browserTimeZone() });

function QuietHoursForm({ saved }: { saved: QuietHours }) {
  const form = useZodForm(quietHoursSchema, shown(saved));
  // A newer answer (the kept one first, then the server's) replaces the form unless it is being edited.
  const editing = form.formState.isDirty;
  useEffect(() => {
    if (!editing) form.reset(shown(saved));
  }, [saved, form, editing]);
  const update = useUpdateQuietHours();
  return (
    <Form
      form={form}
      onSubmit={async (hours) => {
        const answer = await update.mutateAsync(hours);
        form.reset(shown(answer));
        toast.success(answer.enabled ? `Quiet from ${answer.from} to ${answer.to}` : "Quiet hours off");
      }}
      className="flex flex-col gap-2"
      aria-label="Quiet hours"
    >
      <QuietHoursFields />
      <FormError />
      <div>
        <SubmitButton>Save quiet hours</SubmitButton>
      </div>
    </Form>
  );
}

/** Hours without pushes, in the worker's time zone (PUT /api/me/quiet-hours). */
export function QuietHoursCard() {
  const hours = useQuery(alertsQueries.quietHours());
  return (
    <SectionCard id="quiet-hours" heading="Quiet hours">
      <p className="text-sm text-base-content/70">
        No phone notifications between these times. The bell and mail still come.
      </p>
      {hours.isPending ? (
        <ListSkeleton rows={2} />
      ) : hours.isError ? (
        <ErrorState
          message={errorMessage(hours.error, "Could not load your quiet hours")}
          onRetry={() => void hours.refetch()}
        />
      ) : (
        <QuietHoursForm saved={hours.data} />
      )}
    </SectionCard>
  );
}
