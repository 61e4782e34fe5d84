import type { ComponentProps } from "react";
import type { FieldValues } from "react-hook-form";
import { Link } from "react-router";
import { Form, SubmitButton } from "../../../components/form/Form.tsx";
import { CardPage } from "../../../components/ui/CardPage.tsx";
import { GoogleButton } from "./GoogleButton.tsx";

/** The login and register form: its fields, the submit button, Google, and a link to the other one. */
export function AuthCard<Input extends FieldValues, Output>({
  title,
  submitLabel,
  google,
  other,
  children,
  ...form
}: ComponentProps<typeof Form<Input, Output>> & {
  title: string;
  submitLabel: string;
  google: ComponentProps<typeof GoogleButton>;
  other: { to: string; label: string };
}) {
  return (
    <CardPage>
      <Form {...form} className="card-body">
        <h1 className="card-title text-2xl">{title}</h1>
        {children}
        <SubmitButton className="btn btn-primary mt-2">{submitLabel}</SubmitButton>
        <div className="divider my-1">or</div>
        <GoogleButton {...google} />
        <p className="mt-2 text-center text-sm">
          <Link to={other.to} className="link link-primary">
            {other.label}
          </Link>
        </p>
      </Form>
    </CardPage>
  );
}
