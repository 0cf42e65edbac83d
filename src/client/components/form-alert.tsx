import type { ReactNode } from "react";
import { AlertCircleIcon, CheckCircle2Icon } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "./ui/alert";

/** An API error above a form, in the server's own words. */
export function FormError({ message, children }: { message?: string | null; children?: ReactNode }) {
  if (!message) return null;
  return (
    <Alert variant="destructive" data-testid="form-error">
      <AlertCircleIcon />
      <AlertTitle className="line-clamp-none">{message}</AlertTitle>
      {children ? <AlertDescription>{children}</AlertDescription> : null}
    </Alert>
  );
}

export function FormSuccess({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Alert data-testid="form-success">
      <CheckCircle2Icon className="text-success" />
      <AlertTitle className="line-clamp-none">{title}</AlertTitle>
      {children ? <AlertDescription>{children}</AlertDescription> : null}
    </Alert>
  );
}
