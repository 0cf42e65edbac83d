import { Loader2Icon } from "lucide-react";
import { cn } from "@/client/lib/utils";

/** Shown by the router when a screen takes longer than ROUTER_PENDING_MS to load. */
export function PendingView({ className }: { className?: string }) {
  return (
    <div role="status" aria-live="polite" className={cn("flex items-center justify-center gap-2 py-16 text-sm text-muted-foreground", className)}>
      <Loader2Icon className="size-4 animate-spin" aria-hidden />
      Loading…
    </div>
  );
}
