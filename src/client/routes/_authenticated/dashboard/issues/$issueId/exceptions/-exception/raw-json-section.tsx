import { CopyButton } from "@/client/components/copy-button";
import { prettyJson } from "@/client/lib/untrusted-text";

/** The whole stored occurrence, as text. */
export function RawJsonSection({ data }: { data: unknown }) {
  const json = prettyJson(data);
  return (
    <div className="relative min-w-0 rounded-lg border bg-muted/50">
      <div className="absolute top-1.5 right-1.5 rounded-md bg-muted">
        <CopyButton value={json} label="JSON" />
      </div>
      <pre
        className="max-h-[70vh] overflow-auto p-4 pr-12 font-mono text-xs leading-relaxed whitespace-pre-wrap [overflow-wrap:anywhere]"
        data-testid="exception-raw-json"
      >
        {json}
      </pre>
    </div>
  );
}
