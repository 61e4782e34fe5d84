import type { ComponentProps } from "react";
import type { FieldValues } from "react-hook-form";
import { Form } from "./Form.tsx";

/** A Form that is a card, under an optional title. */
export function FormCard<Input extends FieldValues, Output>({
  title,
  className = "",
  children,
  ...form
}: ComponentProps<typeof Form<Input, Output>> & { title?: string }) {
  return (
    <Form {...form} className={`card bg-base-100 shadow-sm ${className}`}>
      <div className="card-body">
        {title && <h2 className="card-title">{title}</h2>}
        {children}
      </div>
    </Form>
  );
}
