import { useEffect, useState } from "react";
import { useRouter, type ErrorComponentProps } from "@tanstack/react-router";
import { useQueryErrorResetBoundary } from "@tanstack/react-query";
import { AlertTriangleIcon, RotateCwIcon } from "lucide-react";
import { Button } from "./ui/button";
import { isChunkLoadError, reloadOnceForChunkError } from "@/client/lib/chunk-reload";
import { errorMessage } from "@/client/lib/api-error";

/** The router's fallback for a failed route (spec §2): a message and a Show/Hide Error toggle. */
export function ErrorView({ error, reset, description }: ErrorComponentProps & { description?: string }) {
  const router = useRouter();
  const queryErrorReset = useQueryErrorResetBoundary();
  const [showError, setShowError] = useState(false);
  const [reloading, setReloading] = useState(false);

  useEffect(() => {
    if (isChunkLoadError(error)) setReloading(reloadOnceForChunkError());
  }, [error]);

  useEffect(() => queryErrorReset.reset(), [queryErrorReset]);

  const retry = () => {
    reset();
    void router.invalidate();
  };

  if (reloading) return null;

  return (
    <div role="alert" data-testid="error-view" className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-16 text-center">
      <AlertTriangleIcon className="size-10 text-destructive" aria-hidden />
      <h1 className="text-xl font-semibold">Something went wrong!</h1>
      {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      <div className="flex gap-2">
        <Button variant="outline" size="sm" onClick={() => setShowError((shown) => !shown)}>
          {showError ? "Hide Error" : "Show Error"}
        </Button>
        <Button size="sm" onClick={retry}>
          <RotateCwIcon /> Try again
        </Button>
      </div>
      {showError ? (
        <pre className="max-w-full overflow-auto rounded-md border bg-muted p-3 text-left text-xs text-destructive whitespace-pre-wrap">
          {errorMessage(error, "Unknown error")}
        </pre>
      ) : null}
    </div>
  );
}
