import { CardPage } from "../../../components/ui/CardPage.tsx";
import { SecondFactorCode } from "../../../components/two-factor/SecondFactorCode.tsx";

/** A sign-in's second step (after a password or Google): the authenticator app's code, or a backup code. */
export function TwoFactorStep({ onCancel }: { onCancel: () => void }) {
  return (
    <CardPage>
      <div className="card-body">
        <h1 className="card-title text-2xl">Two-factor sign-in</h1>
        <SecondFactorCode purpose="sign-in" />
        <button type="button" className="btn btn-ghost btn-sm self-start" onClick={onCancel}>
          Back to sign-in
        </button>
      </div>
    </CardPage>
  );
}
