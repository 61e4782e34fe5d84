import { Copy, TriangleAlert } from "lucide-react";
import { useId } from "react";
import { toast } from "react-toastify";
import { Dialog } from "../../../components/ui/Dialog.tsx";

/**
 * A secret the server shows once (an API key, a webhook's signing secret): stored only as a hash
 * or encrypted, so this dialog is the one chance to copy it.
 */
export function OneTimeSecret({
  secret,
  title,
  label,
  what,
  onClose,
}: {
  /** The secret, or null while none is shown. */
  secret: string | null;
  title: string;
  /** The field's label: "Key", "Signing secret". */
  label: string;
  /** What the secret is, in the sentence "Copy {what} now". */
  what: string;
  onClose: () => void;
}) {
  // Two of these sit on the Developer page (a key's, a webhook's): their ids must differ.
  const id = useId();
  const copy = () =>
    void navigator.clipboard.writeText(secret ?? "").then(
      () => toast.success("Copied"),
      () => toast.error("Copying failed; select the text and copy it yourself"),
    );
  return (
    <Dialog
      open={secret !== null}
      onClose={onClose}
      labelledBy={`${id}-title`}
      describedBy={`${id}-warning`}
      className="modal modal-bottom sm:modal-middle"
    >
      <div className="modal-box">
        <h2 id={`${id}-title`} className="text-lg font-bold">
          {title}
        </h2>
        <p id={`${id}-warning`} className="my-3 flex items-start gap-2 text-sm">
          <TriangleAlert className="size-5 shrink-0 text-warning" aria-hidden="true" />
          <span>
            Copy {what} now and keep it somewhere safe: <strong>you won&apos;t see it again</strong>. If you
            lose it, make a new one.
          </span>
        </p>
        <label htmlFor={`${id}-secret`} className="text-sm font-medium">
          {label}
        </label>
        <input
          id={`${id}-secret`}
          className="input mt-1 w-full font-mono text-sm"
          value={secret ?? ""}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          data-testid="one-time-secret"
        />
        <div className="modal-action">
          <button type="button" className="btn btn-outline" onClick={copy}>
            <Copy className="size-4" aria-hidden="true" />
            Copy
          </button>
          <button type="button" className="btn btn-primary" onClick={onClose}>
            I saved it
          </button>
        </div>
      </div>
    </Dialog>
  );
}
