import { lazy, Suspense, useState } from "react";
import { toast } from "react-toastify";
import { z } from "zod";
import { totpCodeSchema, twoFactorPasswordSchema, type TwoFactorEnrolment } from "@taskmint/shared";
import {
  Field,
  Form,
  FormError,
  PasswordField,
  SubmitButton,
  useZodForm,
} from "../../../components/form/Form.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { useSessionVerified } from "../../../lib/auth.ts";
import { useTwoFactor } from "../api.ts";
import { ConfirmSession } from "../../../components/two-factor/ConfirmSession.tsx";

// The QR code's encoder loads only when someone turns two-factor on.
const QrCode = lazy(() => import("./QrCode.tsx").then((module) => ({ default: module.QrCode })));

const codeFormSchema = z.object({ code: totpCodeSchema });

/** Two-factor sign-in: turning it on (password, QR code, first code, backup codes), off, and new backup codes. */
export function TwoFactorCard({ enabled }: { enabled: boolean }) {
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [freshCodes, setFreshCodes] = useState<string[] | null>(null);
  const [action, setAction] = useState<"off" | "codes" | null>(null);
  return (
    <div className="card bg-base-100 shadow-sm" id="two-factor">
      <div className="card-body">
        <h3 className="card-title">Two-factor sign-in</h3>
        {freshCodes ? (
          <BackupCodesShown codes={freshCodes} onDone={() => setFreshCodes(null)} />
        ) : enrolment ? (
          <ConfirmEnrolment
            enrolment={enrolment}
            onConfirmed={() => {
              setFreshCodes(enrolment.backupCodes);
              setEnrolment(null);
            }}
            onCancel={() => setEnrolment(null)}
          />
        ) : enabled ? (
          <div className="flex flex-col gap-3">
            <p>
              <span className="badge badge-success">On</span> Signing in asks for a code from your
              authenticator app after your password or Google.
            </p>
            <UnconfirmedSession />
            {action ? (
              <PasswordStep
                action={action}
                onCancel={() => setAction(null)}
                onCodes={(codes) => {
                  setAction(null);
                  setFreshCodes(codes);
                }}
              />
            ) : (
              <div className="flex flex-wrap gap-2">
                <button type="button" className="btn btn-outline btn-sm" onClick={() => setAction("codes")}>
                  New backup codes
                </button>
                <button
                  type="button"
                  className="btn btn-outline btn-error btn-sm"
                  onClick={() => setAction("off")}
                >
                  Turn off
                </button>
              </div>
            )}
          </div>
        ) : (
          <StartEnrolment onStarted={setEnrolment} />
        )}
      </div>
    </div>
  );
}

/** Rule R30: a session that began without a code (before two-factor was on) says so, and is confirmed here. */
function UnconfirmedSession() {
  if (useSessionVerified()) return null;
  return (
    <div role="note" className="alert alert-warning flex flex-col items-start">
      <p>
        This session began without a code from your authenticator app. Admin actions that move coins or change
        access need a session confirmed with one.
      </p>
      <ConfirmSession />
    </div>
  );
}

const passwordFormSchema = twoFactorPasswordSchema;

function StartEnrolment({ onStarted }: { onStarted: (enrolment: TwoFactorEnrolment) => void }) {
  const { enable } = useTwoFactor();
  const form = useZodForm(passwordFormSchema, { password: "" });
  return (
    <Form
      form={form}
      onSubmit={async (body) => onStarted(await enable.mutateAsync(body))}
      className="flex flex-col gap-2"
    >
      <p>
        <span className="badge badge-ghost">Off</span> Protect your account with a code from an authenticator
        app (Google Authenticator, Authy, 1Password...) each time you sign in. Admins need it to move coins
        and change access.
      </p>
      <PasswordField name="password" id="two-factor-password" label="Your password" />
      <FormError />
      <SubmitButton className="btn btn-primary self-start">Turn on two-factor sign-in</SubmitButton>
    </Form>
  );
}

function ConfirmEnrolment({
  enrolment,
  onConfirmed,
  onCancel,
}: {
  enrolment: TwoFactorEnrolment;
  onConfirmed: () => void;
  onCancel: () => void;
}) {
  const { confirm } = useTwoFactor();
  const form = useZodForm(codeFormSchema, { code: "" });
  const secret = new URL(enrolment.totpURI).searchParams.get("secret") ?? "";
  return (
    <Form
      form={form}
      onSubmit={async ({ code }) => {
        await confirm.mutateAsync(code);
        toast.success("Two-factor sign-in is on");
        onConfirmed();
      }}
      className="flex flex-col gap-2"
    >
      <p>1. Scan this QR code with your authenticator app.</p>
      <Suspense fallback={<Spinner />}>
        <QrCode text={enrolment.totpURI} label="QR code for your authenticator app" />
      </Suspense>
      <p className="text-sm">
        Cannot scan it? Enter this key in the app:{" "}
        <code className="break-all rounded bg-base-200 px-1" data-testid="totp-secret">
          {secret}
        </code>
      </p>
      <p>2. Enter the 6-digit code the app shows.</p>
      <Field
        name="code"
        id="enrol-code"
        label="Code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
      />
      <FormError />
      <div className="flex flex-wrap gap-2">
        <SubmitButton className="btn btn-primary">Confirm</SubmitButton>
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </Form>
  );
}

function BackupCodesShown({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join("\n");
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(`TaskMint backup codes\n\n${text}\n`)}`;
  return (
    <div className="flex flex-col gap-2">
      <div role="status" className="alert alert-warning text-sm">
        Save these backup codes now: they are shown only once. Each signs you in once if you lose your phone.
      </div>
      <ul aria-label="Backup codes" className="grid grid-cols-2 gap-1 font-mono">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn btn-outline btn-sm"
          onClick={() =>
            void navigator.clipboard.writeText(text).then(
              () => toast.success("Backup codes copied"),
              () => toast.error("Copying failed; select the codes and copy them yourself"),
            )
          }
        >
          Copy
        </button>
        <a className="btn btn-outline btn-sm" href={download} download="taskmint-backup-codes.txt">
          Download
        </a>
        <button type="button" className="btn btn-primary btn-sm" onClick={onDone}>
          I saved them
        </button>
      </div>
    </div>
  );
}

function PasswordStep({
  action,
  onCancel,
  onCodes,
}: {
  action: "off" | "codes";
  onCancel: () => void;
  onCodes: (codes: string[]) => void;
}) {
  const { disable, newBackupCodes } = useTwoFactor();
  const form = useZodForm(passwordFormSchema, { password: "" });
  return (
    <Form
      form={form}
      onSubmit={async (body) => {
        if (action === "off") {
          await disable.mutateAsync(body);
          toast.success("Two-factor sign-in is off");
          onCancel();
        } else {
          onCodes((await newBackupCodes.mutateAsync(body)).backupCodes);
        }
      }}
      className="flex flex-col gap-2"
    >
      <p>
        {action === "off"
          ? "Turning it off signs you in with your password alone."
          : "New backup codes replace the old ones, which stop working."}
      </p>
      <PasswordField name="password" id="two-factor-confirm-password" label="Your password" />
      <FormError />
      <div className="flex flex-wrap gap-2">
        <SubmitButton className={action === "off" ? "btn btn-error" : "btn btn-primary"}>
          {action === "off" ? "Turn off" : "Make new codes"}
        </SubmitButton>
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </Form>
  );
}
