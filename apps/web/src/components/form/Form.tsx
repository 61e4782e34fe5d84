import { zodResolver } from "@hookform/resolvers/zod";
import type { ComponentPropsWithoutRef, ReactNode } from "react";
import {
  FormProvider,
  useForm,
  useFormContext,
  useFormState,
  type DefaultValues,
  type FieldValues,
  type Path,
  type RegisterOptions,
  type UseFormReturn,
} from "react-hook-form";
import type { z } from "zod";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { ButtonSpinner } from "../ui/Spinner.tsx";

/** A react-hook-form form checked by a zod schema (from @taskmint/shared, or built on one). */
export function useZodForm<Schema extends z.ZodType<unknown, FieldValues>>(
  schema: Schema,
  defaultValues?: DefaultValues<z.input<Schema>>,
) {
  return useForm<z.input<Schema>, unknown, z.output<Schema>>({
    resolver: zodResolver(schema),
    defaultValues,
  });
}

/**
 * A form of `useZodForm`. `onSubmit` gets the parsed values; if it throws, the server's field
 * messages (a VALIDATION ApiError's details) go under their fields, then `onError` tells the user (a toast, say)
 * or, without it, FormError shows the message.
 */
export function Form<Input extends FieldValues, Output>({
  form,
  onSubmit,
  onError,
  children,
  ...attributes
}: {
  form: UseFormReturn<Input, unknown, Output>;
  onSubmit: (values: Output) => Promise<unknown> | void;
  onError?: (error: unknown) => void;
  children: ReactNode;
} & Omit<ComponentPropsWithoutRef<"form">, "onSubmit" | "onError" | "children">) {
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      // Only a VALIDATION error's details are field messages; others explain (`reason`), and a
      // form may have a field of that name (a rejection's reason).
      if (error instanceof ApiError && error.code === "VALIDATION" && error.details) {
        for (const [field, message] of Object.entries(error.details)) {
          form.setError(field as Path<Input>, { message });
        }
      }
      if (onError) onError(error);
      else form.setError("root", { message: errorMessage(error, "Something went wrong, please try again") });
    }
  });
  return (
    <FormProvider {...form}>
      <form noValidate {...attributes} onSubmit={(event) => void submit(event)}>
        {children}
      </form>
    </FormProvider>
  );
}

/** A label, the control it names, then a hint and the field's error. */
export function FieldFrame({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="fieldset">
      <label htmlFor={id} className="fieldset-legend">
        {label}
      </label>
      {children}
      {hint && <p className="label">{hint}</p>}
      {error && (
        <p id={`${id}-error`} className="text-sm text-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

interface FieldProps {
  /** The value's name in the form's schema. */
  name: string;
  label: string;
  /** The control's id; the name by default. */
  id?: string;
  hint?: ReactNode;
  rules?: RegisterOptions;
}

type FieldControl =
  | ({ as?: "input" } & ComponentPropsWithoutRef<"input">)
  | ({ as: "textarea" } & ComponentPropsWithoutRef<"textarea">)
  | ({ as: "select" } & ComponentPropsWithoutRef<"select">);

/** A control of the enclosing Form, registered under `name`, with its label and its error. */
export function Field(props: FieldProps & FieldControl) {
  const { name, label, id = name, hint, rules } = props;
  const { register, getFieldState } = useFormContext();
  const error = getFieldState(name, useFormState({ name })).error?.message;
  const bound = {
    id,
    "aria-invalid": Boolean(error),
    "aria-describedby": error ? `${id}-error` : undefined,
    ...register(name, rules),
  };
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      {control(props, bound)}
    </FieldFrame>
  );
}

/** A password Field: `isNew` for choosing one (browsers may suggest one), else for the current one. */
export function PasswordField({ isNew = false, ...field }: FieldProps & { isNew?: boolean }) {
  return <Field {...field} type="password" autoComplete={isNew ? "new-password" : "current-password"} />;
}

function control(props: FieldProps & FieldControl, bound: object) {
  // The rest are the control's own attributes (type, rows, options...).
  const { name: _name, label: _label, id: _id, hint: _hint, rules: _rules, ...element } = props;
  switch (element.as) {
    case "textarea": {
      const { as: _as, ...attributes } = element;
      return <textarea className="textarea w-full" {...attributes} {...bound} />;
    }
    case "select": {
      const { as: _as, ...attributes } = element;
      return <select className="select w-full" {...attributes} {...bound} />;
    }
    default: {
      const { as: _as, ...attributes } = element;
      const className = attributes.type === "file" ? "file-input w-full" : "input w-full";
      return <input className={className} {...attributes} {...bound} />;
    }
  }
}

/** The message of a failed submit that no field took. */
export function FormError() {
  const message = useFormState().errors.root?.message;
  return message ? (
    <div role="alert" className="alert alert-error text-sm">
      {message}
    </div>
  ) : null;
}

/** The form's submit button: disabled, with a spinner, while the submit runs. */
export function SubmitButton({
  children,
  className = "btn btn-primary",
  disabled = false,
}: {
  children: ReactNode;
  className?: string;
  disabled?: boolean;
}) {
  const { isSubmitting } = useFormState();
  return (
    <button type="submit" className={className} disabled={disabled || isSubmitting}>
      {isSubmitting && <ButtonSpinner />}
      {children}
    </button>
  );
}
