import { Link } from "react-router";
import { paths } from "@taskmint/shared/routes";
import { useMe } from "../../../lib/auth.ts";

/**
 * Whether the signed-in admin may take decisions that need two-factor sign-in (rule R27), and
 * the notice that says why not, with the way to turn it on.
 */
export function useTwoFactorGate(what: string) {
  const { data: me } = useMe();
  const locked = me?.two_factor_enabled === false;
  const notice = locked ? (
    <div role="note" className="alert alert-warning mb-4">
      <p>
        Turn on two-factor sign-in in your profile before {what}.{" "}
        <Link to={`${paths.profile}#two-factor`} className="link font-medium">
          Open security settings
        </Link>
      </p>
    </div>
  ) : null;
  return { locked, notice };
}
