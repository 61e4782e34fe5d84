import { useState } from "react";
import { toast } from "react-toastify";
import { z } from "zod";
import { backupCodeSchema, totpCodeSchema } from "@taskmint/shared";
import { Field, Form, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { CardPage } from "../../../components/ui/CardPage.tsx";
import { useVerifySecondFactor } from "../../../lib/auth.ts";

const appCodeSchema = z.object({ code: totpCodeSchema });
const backupSchema = z.object({ code: backupCodeSchema });

/** A sign-in's second step: the 6-digit code of the authenticator app, or one backup code. */
export function TwoFactorStep({ onCancel }: { onCancel: () => void }) {
  const [useBackup, setUseBackup] = useState(false);
  return (
    <CardPage>
      <div className="card-body">
        <h1 className="card-title text-2xl">Two-factor sign-in</h1>
        {useBackup ? <BackupCodeForm key="backup" /> : <AppCodeForm key="app" />}
        <button
          type="button"
          className="btn btn-link btn-sm self-start px-0"
          onClick={() => setUseBackup(!useBackup)}
        >
          {useBackup ? "Use the code from your app instead" : "Lost your phone? Use a backup code"}
        </button>
        <button type="button" className="btn btn-ghost btn-sm self-start" onClick={onCancel}>
          Back to sign-in
        </button>
      </div>
    </CardPage>
  );
}

function AppCodeForm() {
  const verify = useVerifySecondFactor("totp");
  const form = useZodForm(appCodeSchema, { code: "" });
  return (
    <Form
      form={form}
      onSubmit={async ({ code }) => {
        await verify.mutateAsync(code);
        toast.success("Signed in");
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
        autoFocus
      />
      <FormError />
      <SubmitButton className="btn btn-primary mt-2">Verify</SubmitButton>
    </Form>
  );
}

function BackupCodeForm() {
  const verify = useVerifySecondFactor("backup");
  const form = useZodForm(backupSchema, { code: "" });
  return (
    <Form
      form={form}
      onSubmit={async ({ code }) => {
        await verify.mutateAsync(code);
        toast.success("Signed in. That backup code is now used up.");
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
        autoFocus
      />
      <FormError />
      <SubmitButton className="btn btn-primary mt-2">Verify</SubmitButton>
    </Form>
  );
}
