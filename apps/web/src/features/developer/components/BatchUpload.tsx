import { useState } from "react";
import { toast } from "react-toastify";
import { BATCH_COLUMNS, MAX_BATCH_ROWS, type BatchPreview as Preview } from "@taskmint/shared";
import { Dialog } from "../../../components/ui/Dialog.tsx";
import { ButtonSpinner } from "../../../components/ui/Spinner.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useMe } from "../../../lib/auth.ts";
import { coinCount, plural } from "../../../lib/format.ts";
import { usePostBatch, usePreviewBatch } from "../api.ts";
import { BatchPreview } from "./BatchPreview.tsx";

/** A checked file, with the key that makes posting it happen once. */
interface Checked {
  file: File;
  preview: Preview;
  idempotencyKey: string;
}

/** Asks before the batch spends the buyer's coins. */
function ConfirmPost({
  checked,
  busy,
  onConfirm,
  onCancel,
}: {
  checked: Checked | null;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const preview = checked?.preview;
  return (
    <Dialog
      open={checked !== null}
      onClose={onCancel}
      labelledBy="post-batch-title"
      describedBy="post-batch-message"
    >
      <div className="modal-box">
        <h2 id="post-batch-title" className="text-lg font-bold">
          Post {preview && plural(preview.rows, "task")}?
        </h2>
        <p id="post-batch-message" className="py-3">
          {preview && coinCount(preview.total_cost)} move from your balance into the tasks&apos; escrow now; a
          task&apos;s unused coins come back when it is deleted or expires.
        </p>
        <div className="modal-action">
          <button type="button" className="btn" onClick={onCancel} autoFocus>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={onConfirm} disabled={busy}>
            {busy && <ButtonSpinner />}
            Yes, post them
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/** Upload a CSV, see it checked and priced (nothing posted), then post it after a question. */
export function BatchUpload() {
  const { data: me } = useMe();
  const check = usePreviewBatch();
  const post = usePostBatch();
  const [file, setFile] = useState<File | null>(null);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [inputKey, setInputKey] = useState(0);

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setChecked(null);
    check.reset();
  };
  const runCheck = () => {
    if (!file) return;
    check.mutate(file, {
      onSuccess: (preview) => setChecked({ file, preview, idempotencyKey: crypto.randomUUID() }),
    });
  };
  const runPost = () => {
    if (!checked) return;
    post.mutate(checked, {
      onSuccess: (created) => {
        toast.success(`Posted ${plural(created.tasks_created, "task")} for ${coinCount(created.total_cost)}`);
        setConfirming(false);
        choose(null);
        setInputKey(inputKey + 1);
      },
      onError: (error) => {
        setConfirming(false);
        toast.error(errorMessage(error, "Failed to post the batch"));
      },
    });
  };
  const ready = checked !== null && checked.preview.errors.length === 0 && checked.preview.rows > 0;
  const affordable = !me || !checked || checked.preview.total_cost <= me.coins;

  return (
    <div className="flex flex-col gap-3 rounded-box border border-base-300 p-3 sm:p-4">
      <div className="fieldset">
        <label htmlFor="batch-file" className="fieldset-legend">
          CSV file
        </label>
        <input
          key={inputKey}
          id="batch-file"
          type="file"
          accept=".csv,text/csv"
          className="file-input w-full"
          aria-describedby="batch-file-hint"
          onChange={(event) => choose(event.currentTarget.files?.[0] ?? null)}
        />
        <p id="batch-file-hint" className="label break-words whitespace-normal">
          A header row, then one task a row, at most {MAX_BATCH_ROWS.toLocaleString("en-US")}. Columns:{" "}
          {BATCH_COLUMNS.join(", ")} (the first five required; each task shows its category&apos;s picture).
        </p>
      </div>
      <div>
        <button type="button" className="btn" disabled={!file || check.isPending} onClick={runCheck}>
          {check.isPending && <ButtonSpinner />}
          Check the file
        </button>
      </div>
      {check.isError && <ErrorState message={errorMessage(check.error, "Failed to check the file")} />}
      {checked && <BatchPreview preview={checked.preview} coins={me?.coins} />}
      {ready && (
        <div>
          <button
            type="button"
            className="btn btn-primary"
            disabled={!affordable}
            onClick={() => setConfirming(true)}
          >
            Post {plural(checked.preview.rows, "task")} for {coinCount(checked.preview.total_cost)}
          </button>
        </div>
      )}
      <ConfirmPost
        checked={confirming ? checked : null}
        busy={post.isPending}
        onConfirm={runPost}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
