import { useState } from "react";
import { toast } from "react-toastify";
import { z } from "zod";
import { backupCodeSchema, totpCodeSchema } from "@taskmint/shared";
import { Field, Form, FormError, SubmitButton, useZodForm } from "../form/Form.tsx";
import { useVerifySecondFactor } from "../../lib/authActions.ts";

const appCodeSchema = z.object({ code: totpCodeSchema });
const backupSchema = z.object({ code: backupCodeSchema });

type Purpose = "sign-in" | "session";

const DONE: Record<Purpose, string> = { "sign-in": "Signed in", session: "This session is confirmed" };
/** The sign-in card's buttons span it; beside other content the button keeps its own width. */
const SUBMIT: Record<Purpose, string> = {
  "sign-in": "btn btn-primary mt-2",
  session: "btn btn-primary mt-2 self-start",
};

/**
 * A second factor: the 6-digit code of the authenticator app, or one backup code. For a
 * sign-in's second step, or (`session`) for confirming the session already signed in, which
 * admin actions need (rule R30). Either way the signed-in user is read again after.
 */
export function SecondFactorCode({ purpose }: { purpose: Purpose }) {
  const [useBackup, setUseBackup] = useState(false);
  // The sign-in's step is the page's only task; elsewhere the form waits until it is chosen.
  const autoFocus = purpose === "sign-in" || useBackup;
  return (
    <>
      {useBackup ? (
        <BackupCodeForm key="backup" purpose={purpose} autoFocus />
      ) : (
        <AppCodeForm key="app" purpose={purpose} autoFocus={autoFocus} />
      )}
      <button
        type="button"
        className="btn btn-link btn-sm self-start px-0"
        onClick={() => setUseBackup(!useBackup)}
      >
        {useBackup ? "Use the code from your app instead" : "Lost your phone? Use a backup code"}
      </button>
    </>
  );
}

function AppCodeForm({ purpose, autoFocus }: { purpose: Purpose; autoFocus: boolean }) {
  const verify = useVerifySecondFactor("totp");
  const form = useZodForm(appCodeSchema, { code: "" });
  return (
    <Form
      form={form}
      onSubmit={async ({ code }) => {
        await verify.mutateAsync(code);
        toast.success(DONE[purpose]);
      }}
      className="flex flex-col gap-2"
    >
      <p>Enter the 6-digit code your authenticator app shows for TaskMint.</p>
      <Field
        name="code"
        id="two-factor-code"
        label="Code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        autoFocus={autoFocus}
      />
      <FormError />
      <SubmitButton className={SUBMIT[purpose]}>Verify</SubmitButton>
    </Form>
  );
}

function BackupCodeForm({ purpose, autoFocus }: { purpose: Purpose; autoFocus: boolean }) {
  const verify = useVerifySecondFactor("backup");
  const form = useZodForm(backupSchema, { code: "" });
  return (
    <Form
      form={form}
      onSubmit={async ({ code }) => {
        await verify.mutateAsync(code);
        toast.success(`${DONE[purpose]}. That backup code is now used up.`);
      }}
      className="flex flex-col gap-2"
    >
      <p>Enter one of the backup codes you saved when you turned on two-factor sign-in. Each works once.</p>
      <Field
        name="code"
        id="backup-code"
        label="Backup code"
        autoComplete="off"
        spellCheck={false}
        autoFocus={autoFocus}
      />
      <FormError />
      <SubmitButton className={SUBMIT[purpose]}>Verify</SubmitButton>
    </Form>
  );
}
