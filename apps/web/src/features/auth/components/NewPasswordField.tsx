import { Check, Circle } from "lucide-react";
import { useFormContext, useFormState, useWatch } from "react-hook-form";
import { PASSWORD_MIN_LENGTH } from "@taskmint/shared/constants";
import { FieldFrame } from "../../../components/form/Form.tsx";

const RULES = [
  {
    label: `At least ${PASSWORD_MIN_LENGTH} characters`,
    met: (value: string) => Array.from(value).length >= PASSWORD_MIN_LENGTH,
  },
  { label: "An uppercase letter", met: (value: string) => /[A-Z]/.test(value) },
  { label: "A lowercase letter", met: (value: string) => /[a-z]/.test(value) },
];

/**
 * Choosing a password at sign-up: the rule is shown before the first try, each part ticked
 * as it is met, so the form is not refused for a rule the user never saw.
 */
export function NewPasswordField({ name, id, label }: { name: string; id: string; label: string }) {
  const { register } = useFormContext();
  const value = String(useWatch({ name }) ?? "");
  const error = useFormState({ name }).errors[name]?.message;
  const describedBy = [`${id}-rule`, error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <FieldFrame id={id} label={label} error={typeof error === "string" ? error : undefined}>
      <input
        id={id}
        type="password"
        autoComplete="new-password"
        className="input w-full"
        aria-invalid={Boolean(error)}
        aria-describedby={describedBy}
        {...register(name)}
      />
      <PasswordRule id={`${id}-rule`} value={value} />
    </FieldFrame>
  );
}

/** The password rule, each part ticked as the typed password meets it. */
function PasswordRule({ id, value }: { id: string; value: string }) {
  return (
    <ul id={id} className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {RULES.map((rule) => {
        const met = rule.met(value);
        return (
          <li key={rule.label} className="flex items-center gap-1 text-base-content/80">
            {met ? (
              <Check className="size-4 text-success" aria-hidden="true" />
            ) : (
              <Circle className="size-4 p-0.5 text-base-content/50" aria-hidden="true" />
            )}
            {rule.label}
            <span className="sr-only">{met ? " (done)" : ""}</span>
          </li>
        );
      })}
    </ul>
  );
}
