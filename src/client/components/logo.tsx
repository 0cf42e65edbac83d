import { Link } from "@tanstack/react-router";
import { ActivityIcon } from "lucide-react";

export function Logo() {
  return (
    <Link to="/" className="flex items-center gap-2 font-semibold tracking-tight">
      <span className="flex size-7 items-center justify-center rounded-md bg-brand text-white">
        <ActivityIcon className="size-4" aria-hidden />
      </span>
      Faultline
    </Link>
  );
}
