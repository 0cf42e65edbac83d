import { Link } from "@tanstack/react-router";
import { ActivityIcon } from "lucide-react";

/** `compact`: the name only from the `sm` breakpoint up (the header on a phone keeps the mark). */
export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <Link to="/" className="flex shrink-0 items-center gap-2 font-semibold tracking-tight" aria-label="Faultline">
      <span className="flex size-7 items-center justify-center rounded-md bg-brand text-white">
        <ActivityIcon className="size-4" aria-hidden />
      </span>
      <span className={compact ? "hidden sm:inline" : undefined}>Faultline</span>
    </Link>
  );
}
