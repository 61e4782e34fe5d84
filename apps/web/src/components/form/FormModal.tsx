import type { ComponentProps, ReactNode } from "react";
import type { FieldValues } from "react-hook-form";
import { Modal } from "../ui/Modal.tsx";
import { Form } from "./Form.tsx";

/** A Form in a Modal, so the submit button can stand among the modal's actions. */
export function FormModal<Input extends FieldValues, Output>({
  title,
  onClose,
  actions,
  wide,
  children,
  ...form
}: ComponentProps<typeof Form<Input, Output>> & {
  title: string;
  onClose: () => void;
  actions: ReactNode;
  wide?: boolean;
}) {
  return (
    <Form {...form}>
      <Modal open title={title} onClose={onClose} actions={actions} wide={wide}>
        {children}
      </Modal>
    </Form>
  );
}
