import { CopyButton } from "./copy-button";

/** A copyable snippet. Content is rendered as text, never as HTML. */
export function CodeBlock({ code, label = "snippet", testId }: { code: string; label?: string; testId?: string }) {
  return (
    <div className="relative min-w-0 rounded-lg border bg-muted/50">
      <div className="absolute top-1.5 right-1.5 rounded-md bg-muted">
        <CopyButton value={code} label={label} />
      </div>
      <pre className="overflow-x-auto p-4 pr-12 font-mono text-xs leading-relaxed" data-testid={testId}>
        <code>{code}</code>
      </pre>
    </div>
  );
}
