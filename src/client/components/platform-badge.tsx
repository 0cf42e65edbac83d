import { PLATFORM_LABELS, type Platform } from "@/shared/platforms";
import { Badge } from "./ui/badge";

export function PlatformBadge({ platform }: { platform: Platform }) {
  return <Badge variant="secondary">{PLATFORM_LABELS[platform] ?? platform}</Badge>;
}
