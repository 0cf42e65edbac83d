import { Link } from "@tanstack/react-router";
import { cleanText } from "@/client/lib/untrusted-text";
import { cn } from "@/client/lib/utils";

/** A release version on the issue page, opening that release's page. */
export function ReleaseLink({ projectId, version, className }: { projectId: string; version: string; className?: string }) {
  return (
    <Link
      to="/dashboard/releases/$version"
      params={{ version }}
      search={{ projectId }}
      className={cn("underline-offset-2 hover:underline", className)}
      data-testid="issue-release-link"
    >
      {cleanText(version)}
    </Link>
  );
}
