import { Badge } from "@/client/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/client/components/ui/card";
import { UntrustedText } from "@/client/components/untrusted-text";
import { FrameList } from "./stack-trace";
import type { ThreadView } from "@/shared/occurrence-view";

/**
 * The event's threads: the crashed one (ingest keeps its stack) first and open, the others by id and
 * name. When the exception already carries the crashed stack the list is still useful: which
 * threads were running.
 */
export function ThreadsSection({ threads }: { threads: ThreadView[] }) {
  if (threads.length === 0) return null;
  const ordered = [...threads].sort((a, b) => Number(b.crashed) - Number(a.crashed) || Number(b.current) - Number(a.current));
  return (
    <Card className="gap-3" data-testid="exception-threads">
      <CardHeader>
        <CardTitle>Threads ({threads.length})</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2">
        {ordered.map((thread, index) => (
          <details key={index} open={thread.crashed || (index === 0 && thread.frames.length > 0)} className="rounded-md border" data-testid="exception-thread">
            <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-3 py-2 font-mono text-xs">
              <span>#{thread.id ? <UntrustedText value={thread.id} maxLength={40} /> : "?"}</span>
              {thread.name ? <UntrustedText value={thread.name} maxLength={200} /> : null}
              {thread.crashed ? (
                <Badge variant="outline" className="border-transparent bg-red-500/15 text-red-700 dark:text-red-400">
                  Crashed
                </Badge>
              ) : null}
              {thread.current ? <Badge variant="secondary">Current</Badge> : null}
            </summary>
            {thread.frames.length ? (
              <FrameList frames={thread.frames} inAppOnly={false} />
            ) : (
              <p className="px-3 pb-2 text-xs text-muted-foreground">Stack not kept (only the crashed thread's is).</p>
            )}
          </details>
        ))}
      </CardContent>
    </Card>
  );
}
