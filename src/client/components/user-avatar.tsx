import { cn } from "@/client/lib/utils";
import { isAllowedAvatarUrl } from "@/shared/avatar";

function initials(name: string) {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? "") : "")).toUpperCase() || "?";
}

/**
 * The user's image when it is on a known provider's host (shared/avatar.ts), else their initials:
 * a picture stored before the rule, or by an older server, must not make this browser call out.
 */
export function UserAvatar({ name, image, className }: { name: string; image?: string | null; className?: string }) {
  return (
    <span className={cn("flex size-8 shrink-0 items-center justify-center overflow-hidden rounded-full bg-muted text-xs font-medium", className)}>
      {image && isAllowedAvatarUrl(image) ? <img src={image} alt="" className="size-full object-cover" referrerPolicy="no-referrer" /> : initials(name)}
    </span>
  );
}
