import { useState } from "react";
import { ExternalLinkIcon } from "lucide-react";
import { cleanText, safeHttpUrl } from "@/client/lib/untrusted-text";
import { cn } from "@/client/lib/utils";

/**
 * A value sent by an SDK, as text: escape sequences removed, long values cut with a way to see
 * all of it. Never rendered as HTML.
 */
export function UntrustedText({ value, maxLength = 1000, className }: { value: string | null | undefined; maxLength?: number; className?: string }) {
  const [expanded, setExpanded] = useState(false);
  if (value === null || value === undefined || value === "") return <span className="text-muted-foreground">—</span>;
  const text = cleanText(value);
  const cut = !expanded && text.length > maxLength;
  return (
    <span className={cn("break-words whitespace-pre-wrap [overflow-wrap:anywhere]", className)}>
      {cut ? `${text.slice(0, maxLength)}…` : text}
      {text.length > maxLength ? (
        <button
          type="button"
          className="ml-1 text-xs text-muted-foreground underline underline-offset-2 hover:text-foreground"
          onClick={() => setExpanded((shown) => !shown)}
        >
          {expanded ? "Show less" : `Show all ${text.length.toLocaleString()} characters`}
        </button>
      ) : null}
    </span>
  );
}

/**
 * A URL sent by an SDK. Only an absolute http(s) URL becomes a link (opened without referrer or
 * opener); anything else — `javascript:`, `data:`, relative paths — stays plain text.
 */
export function UntrustedLink({ url, className }: { url: string | null | undefined; className?: string }) {
  const href = safeHttpUrl(url);
  if (!href) return <UntrustedText value={url} className={className} />;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className={cn("break-all underline-offset-2 hover:underline", className)}
      data-testid="untrusted-link"
    >
      {cleanText(url ?? "")}
      <ExternalLinkIcon className="ml-1 inline size-3 text-muted-foreground" aria-hidden />
    </a>
  );
}
