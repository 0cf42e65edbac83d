import { Loader2Icon } from "lucide-react";

/** Shown for the moment a list past its last page takes to move to the last page (see usePageClamp). */
export function PastLastPage() {
  return (
    <p role="status" className="flex items-center justify-center gap-2 px-4 py-10 text-sm text-muted-foreground" data-testid="past-last-page">
      <Loader2Icon className="size-4 animate-spin" aria-hidden />
      No more results on this page. Going to the last page…
    </p>
  );
}
