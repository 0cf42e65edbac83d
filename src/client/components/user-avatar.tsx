import { cn } from "@/client/lib/utils";

function initials(name: string) {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? "") : "")).toUpperCase() || "?";
}

/** The user's image when set, else their initials. */
export function UserAvatar({ name, image, className }: { name: string; image?: string | null; className?: string }) {
  return (
    <span className={cn("flex size-8 shrink-0 items-center justify-center overflow-hidden rounded-full bg-muted text-xs font-medium", className)}>
      {image ? <img src={image} alt="" className="size-full object-cover" referrerPolicy="no-referrer" /> : initials(name)}
    </span>
  );
}
