import { BriefcaseBusiness, Coins } from "lucide-react";
import { useFormContext, useFormState } from "react-hook-form";
import { SIGNUP_BONUS, type SelfRegisterRole } from "@taskmint/shared/constants";

const CHOICES: { role: SelfRegisterRole; title: string; text: string; icon: typeof Coins }[] = [
  {
    role: "worker",
    title: "I want to earn",
    text: `Do small online tasks and get paid in coins. You start with ${SIGNUP_BONUS.worker}.`,
    icon: Coins,
  },
  {
    role: "buyer",
    title: "I want tasks done",
    text: `Post tasks and pay only for approved work. You start with ${SIGNUP_BONUS.buyer} coins.`,
    icon: BriefcaseBusiness,
  },
];

/** Sign-up's role as two radio cards (a worker or a buyer), registered as the form's `role`. */
export function RoleChoice() {
  const { register } = useFormContext<{ role: SelfRegisterRole }>();
  const message: unknown = useFormState({ name: "role" }).errors.role?.message;
  const error = typeof message === "string" ? message : undefined;
  return (
    <fieldset
      className="fieldset"
      aria-describedby={error ? "register-role-error" : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className="fieldset-legend">What brings you here?</legend>
      <div className="grid gap-2">
        {CHOICES.map(({ role, title, text, icon: Icon }) => (
          <label
            key={role}
            className="flex min-h-11 cursor-pointer gap-3 rounded-box border border-base-300 bg-base-100 p-3 transition-colors hover:border-primary/60 has-[:checked]:border-primary has-[:checked]:bg-primary/10 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary"
          >
            <input
              type="radio"
              value={role}
              className="radio radio-primary radio-sm mt-0.5 shrink-0"
              {...register("role")}
            />
            <span className="min-w-0">
              <span className="flex items-center gap-1.5 text-base font-semibold text-base-content">
                <Icon className="size-5 shrink-0 text-primary" aria-hidden="true" />
                {title}
              </span>
              <span className="mt-0.5 block text-sm text-base-content/70">{text}</span>
            </span>
          </label>
        ))}
      </div>
      {error && (
        <p id="register-role-error" className="text-sm text-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
