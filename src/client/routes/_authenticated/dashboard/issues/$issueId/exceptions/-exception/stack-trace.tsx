import { useId, useState } from "react";
import { ChevronRightIcon } from "lucide-react";
import { cleanText } from "@/client/lib/untrusted-text";
import { cn } from "@/client/lib/utils";
import { UntrustedText } from "@/client/components/untrusted-text";
import { Badge } from "@/client/components/ui/badge";
import { Card, CardContent, CardHeader } from "@/client/components/ui/card";
import { Checkbox } from "@/client/components/ui/checkbox";
import { Label } from "@/client/components/ui/label";
import type { ExceptionValueView, FrameView } from "./occurrence";

/** Minified bundles put whole files on one line; a context line is cut at this length. */
const MAX_CONTEXT_LINE = 400;

/**
 * The exception chain, thrown exception first and then "caused by" each cause (the stored order is
 * the reverse), each with its stack trace newest call first. One toggle limits every trace to the
 * application's own frames.
 */
export function ExceptionChain({ exceptions, stacktrace }: { exceptions: ExceptionValueView[]; stacktrace: FrameView[] }) {
  const chain = [...exceptions].reverse();
  const allFrames = exceptions.length ? exceptions.flatMap((exception) => exception.frames) : stacktrace;
  const hasInApp = allFrames.some((frame) => frame.inApp);
  const [inAppOnly, setInAppOnly] = useState(hasInApp);
  const toggleId = useId();

  if (chain.length === 0 && stacktrace.length === 0) return null;

  return (
    <section className="grid gap-3" data-testid="exception-chain">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{chain.length ? "Exception" : "Stack trace"}</h2>
        {allFrames.length ? (
          <div className="flex items-center gap-2">
            <Checkbox
              id={toggleId}
              checked={inAppOnly}
              onCheckedChange={(checked) => setInAppOnly(checked === true)}
              disabled={!hasInApp}
              data-testid="in-app-toggle"
            />
            <Label htmlFor={toggleId} className="font-normal">
              In-app frames only
            </Label>
          </div>
        ) : null}
      </div>
      {chain.length === 0 ? (
        <Card className="gap-0 py-0">
          <FrameList frames={stacktrace} inAppOnly={inAppOnly} />
        </Card>
      ) : (
        chain.map((exception, index) => (
          <div key={index} className="grid gap-3">
            {index > 0 ? (
              <p className="text-sm font-medium text-muted-foreground" data-testid="caused-by">
                Caused by
              </p>
            ) : null}
            <ExceptionCard exception={exception} inAppOnly={inAppOnly} thrown={index === 0} />
          </div>
        ))
      )}
    </section>
  );
}

function ExceptionCard({ exception, inAppOnly, thrown }: { exception: ExceptionValueView; inAppOnly: boolean; thrown: boolean }) {
  const mechanism = exception.mechanism;
  return (
    <Card className="gap-0 overflow-hidden py-0" data-testid="chained-exception" data-thrown={thrown}>
      <CardHeader className="gap-1.5 border-b py-4">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-mono font-semibold break-all" data-testid="exception-type">
            {exception.type ? cleanText(exception.type) : "Error"}
          </span>
          {mechanism?.handled === false ? (
            <Badge variant="outline" className="border-transparent bg-red-500/15 text-red-700 dark:text-red-400">
              Unhandled
            </Badge>
          ) : mechanism?.handled === true ? (
            <Badge variant="secondary">Handled</Badge>
          ) : null}
          {mechanism?.type ? (
            <Badge variant="outline" className="font-mono font-normal">
              {cleanText(mechanism.type)}
            </Badge>
          ) : null}
        </div>
        {exception.value ? (
          <p className="text-sm" data-testid="exception-value">
            <UntrustedText value={exception.value} maxLength={2000} />
          </p>
        ) : null}
      </CardHeader>
      {exception.frames.length ? (
        <FrameList frames={exception.frames} inAppOnly={inAppOnly} />
      ) : (
        <p className="px-6 py-4 text-sm text-muted-foreground">No stack trace was sent.</p>
      )}
    </Card>
  );
}

function FrameList({ frames, inAppOnly }: { frames: FrameView[]; inAppOnly: boolean }) {
  const newestFirst = [...frames].reverse();
  const inApp = newestFirst.filter((frame) => frame.inApp);
  const showAll = !inAppOnly || inApp.length === 0;
  const shown = showAll ? newestFirst : inApp;
  return (
    <>
      {inAppOnly && inApp.length === 0 ? (
        <p className="border-b px-4 py-2 text-xs text-muted-foreground">No in-app frames in this stack; showing all frames.</p>
      ) : null}
      {!showAll && inApp.length < newestFirst.length ? (
        <p className="border-b px-4 py-2 text-xs text-muted-foreground">
          {newestFirst.length - inApp.length} library {newestFirst.length - inApp.length === 1 ? "frame" : "frames"} hidden
        </p>
      ) : null}
      <ol className="divide-y" data-testid="stack-frames">
        {shown.map((frame, index) => (
          // Frames have no identity of their own; position within this rendering is theirs.
          <Frame key={`${showAll}-${index}`} frame={frame} defaultOpen={index === 0} />
        ))}
      </ol>
    </>
  );
}

function frameLocation(frame: FrameView): string {
  const file = frame.filename ?? frame.absPath ?? frame.module ?? "<unknown>";
  const position = [frame.lineno, frame.colno].filter((part): part is number => part !== null).join(":");
  return cleanText(position ? `${file}:${position}` : file);
}

function Frame({ frame, defaultOpen }: { frame: FrameView; defaultOpen: boolean }) {
  const hasContext = frame.contextLine !== null || frame.preContext.length > 0 || frame.postContext.length > 0;
  const [open, setOpen] = useState(defaultOpen && hasContext);
  return (
    <li data-testid="stack-frame" data-in-app={frame.inApp} className={cn(!frame.inApp && "bg-muted/30")}>
      <button
        type="button"
        className="flex w-full min-w-0 items-start gap-2 px-4 py-2 text-left text-sm enabled:hover:bg-accent/60 disabled:cursor-default"
        onClick={() => setOpen((shown) => !shown)}
        disabled={!hasContext}
        aria-expanded={hasContext ? open : undefined}
        data-testid="stack-frame-toggle"
      >
        <ChevronRightIcon
          className={cn("mt-0.5 size-4 shrink-0 text-muted-foreground transition-transform", open && "rotate-90", !hasContext && "invisible")}
          aria-hidden
        />
        <span className="min-w-0 flex-1 font-mono text-xs leading-5 break-all">
          <span className={cn("font-semibold", !frame.inApp && "text-muted-foreground")} data-testid="frame-function">
            {frame.function ? cleanText(frame.function) : "<anonymous>"}
          </span>
          <span className="text-muted-foreground"> at </span>
          <span title={frame.absPath ? cleanText(frame.absPath) : undefined} data-testid="frame-location">
            {frameLocation(frame)}
          </span>
        </span>
        {frame.inApp ? (
          <Badge variant="outline" className="shrink-0 border-transparent bg-blue-500/15 text-blue-700 dark:text-blue-300">
            In app
          </Badge>
        ) : null}
      </button>
      {open ? <ContextLines frame={frame} /> : null}
    </li>
  );
}

function ContextLines({ frame }: { frame: FrameView }) {
  const rows: { number: number | null; code: string; current: boolean }[] = [];
  const base = frame.lineno;
  const numberAt = (offset: number) => (base === null ? null : base + offset);
  frame.preContext.forEach((code, index) => rows.push({ number: numberAt(index - frame.preContext.length), code, current: false }));
  if (frame.contextLine !== null) rows.push({ number: base, code: frame.contextLine, current: true });
  frame.postContext.forEach((code, index) => rows.push({ number: numberAt(index + 1), code, current: false }));

  return (
    <div className="overflow-x-auto border-t bg-muted/40" data-testid="frame-context">
      <ol className="min-w-fit py-1 font-mono text-xs leading-5">
        {rows.map((row, index) => (
          <li key={index} className={cn("flex", row.current && "bg-brand/15 font-medium")} data-current={row.current || undefined}>
            <span className={cn("w-14 shrink-0 pr-3 text-right text-muted-foreground select-none", row.current && "text-foreground")}>{row.number ?? ""}</span>
            <span className="pr-4 whitespace-pre">{truncate(cleanText(row.code))}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

function truncate(code: string): string {
  return code.length > MAX_CONTEXT_LINE ? `${code.slice(0, MAX_CONTEXT_LINE)} …` : code;
}
