import { AlertCircleIcon, RotateCwIcon } from "lucide-react";
import { errorMessage } from "@/client/lib/api-error";
import { Alert, AlertDescription, AlertTitle } from "./ui/alert";
import { Button } from "./ui/button";

/** A failed read inside a screen, with a retry, for parts that load on their own. */
export function QueryErrorAlert({ error, onRetry, title = "Could not load this" }: { error: unknown; onRetry?: () => void; title?: string }) {
  return (
    <Alert variant="destructive">
      <AlertCircleIcon />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>
        <p>{errorMessage(error)}</p>
        {onRetry ? (
          <Button variant="outline" size="sm" onClick={onRetry} className="mt-2">
            <RotateCwIcon /> Try again
          </Button>
        ) : null}
      </AlertDescription>
    </Alert>
  );
}
