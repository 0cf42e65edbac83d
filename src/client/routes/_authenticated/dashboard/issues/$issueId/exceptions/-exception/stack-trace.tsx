import { useId, useState } from "react";
import { ChevronRightIcon } from "lucide-react";
import { cleanText } from "@/client/lib/untrusted-text";
import { cn } from "@/client/lib/utils";
import { UntrustedLink, UntrustedText } from "@/client/components/untrusted-text";
import { Badge } from "@/client/components/ui/badge";
import { Card, CardContent, CardHeader } from "@/client/components/ui/card";
import { Checkbox } from "@/client/components/ui/checkbox";
import { Label } from "@/client/components/ui/label";
import { KeyValueTable } from "./key-value-table";
import { exceptionTree } from "@/shared/exception-tree";
import type { ExceptionValueView, FrameView } from "@/shared/occurrence-view";
import { SYMBOLICATION_REASON_LABELS } from "@/shared/symbolication";

/** Minified bundles put whole files on one line; a context line is cut at this length. */
const MAX_CONTEXT_LINE = 400;

/**
 * The exception chain, thrown exception first and then "caused by" each cause (the stored order is
 * the reverse), each with its stack trace newest call first; an exception group as a tree. A
 * message event (captureMessage, whose stack some SDKs carry in a typeless exception) is shown as
 * a message with its stack, never as an "Error". One toggle limits every trace to the
 * application's own frames; another, when source maps mapped any frame, shows the minified frames
 * the SDK sent.
 */
export function ExceptionChain({ exceptions, stacktrace, message }: { exceptions: ExceptionValueView[]; stacktrace: FrameView[]; message: string | null }) {
  const carriesMessage = message !== null && exceptions.length > 0 && exceptions.every((exception) => exception.type === null);
  const realExceptions = carriesMessage ? [] : exceptions;
  const stack = carriesMessage ? exceptions.flatMap((exception) => exception.frames) : stacktrace;
  const tree = exceptionTree(realExceptions);
  const allFrames = realExceptions.length ? realExceptions.flatMap((exception) => exception.frames) : stack;
  const hasInApp = allFrames.some((frame) => frame.inApp);
  const [inAppOnly, setInAppOnly] = useState(hasInApp);
  const toggleId = useId();
  const hasMinified = allFrames.some((frame) => frame.raw !== null);
  const [minified, setMinified] = useState(false);
  const minifiedToggleId = useId();
  const isMessage = realExceptions.length === 0 && message !== null;

  if (realExceptions.length === 0 && stack.length === 0 && !isMessage) return null;

  return (
    <section className="grid gap-3" data-testid="exception-chain">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{realExceptions.length ? "Exception" : isMessage ? "Message" : "Stack trace"}</h2>
        {allFrames.length ? (
          <div className="flex items-center gap-4">
            {hasMinified ? (
              <div className="flex items-center gap-2">
                <Checkbox id={minifiedToggleId} checked={minified} onCheckedChange={(checked) => setMinified(checked === true)} data-testid="minified-toggle" />
                <Label htmlFor={minifiedToggleId} className="font-normal">
                  Minified
                </Label>
              </div>
            ) : null}
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
          </div>
        ) : null}
      </div>
      {realExceptions.length === 0 ? (
        <Card className="gap-0 overflow-hidden py-0" data-testid={isMessage ? "message-event" : undefined}>
          {isMessage ? (
            <CardHeader className="border-b py-4">
              <p className="text-sm whitespace-pre-wrap" data-testid="event-message">
                <UntrustedText value={message} maxLength={5000} />
              </p>
            </CardHeader>
          ) : null}
          {stack.length ? (
            <FrameList frames={stack} inAppOnly={inAppOnly} minified={minified} />
          ) : (
            <p className="px-6 py-4 text-sm text-muted-foreground">No stack trace was sent.</p>
          )}
        </Card>
      ) : (
        tree.map(({ exception, depth, causedBy }, index) => (
          <div key={index} className="grid gap-3" style={{ marginLeft: `${Math.min(depth, 6) * 1.5}rem` }} data-depth={depth}>
            {causedBy ? (
              <p className="text-sm font-medium text-muted-foreground" data-testid="caused-by">
                Caused by
              </p>
            ) : null}
            <ExceptionCard exception={exception} inAppOnly={inAppOnly} minified={minified} thrown={index === 0} />
          </div>
        ))
      )}
    </section>
  );
}

function ExceptionCard({ exception, inAppOnly, minified, thrown }: { exception: ExceptionValueView; inAppOnly: boolean; minified: boolean; thrown: boolean }) {
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
          {mechanism?.isExceptionGroup ? <Badge variant="secondary">Exception group</Badge> : null}
          {mechanism?.synthetic ? (
            <Badge variant="outline" title="Made up by the crash handler: its type and value are the same for every crash" data-testid="synthetic-badge">
              Synthetic
            </Badge>
          ) : null}
        </div>
        {exception.value ? (
          <p className="text-sm" data-testid="exception-value">
            <UntrustedText value={exception.value} maxLength={2000} />
          </p>
        ) : null}
        {mechanism?.description ? (
          <p className="text-sm text-muted-foreground" data-testid="mechanism-description">
            <UntrustedText value={mechanism.description} maxLength={2000} />
          </p>
        ) : null}
        {mechanism?.helpLink ? (
          <p className="text-sm" data-testid="mechanism-help-link">
            <UntrustedLink url={mechanism.helpLink} />
          </p>
        ) : null}
      </CardHeader>
      {exception.frames.length ? (
        <FrameList frames={exception.frames} inAppOnly={inAppOnly} minified={minified} />
      ) : (
        <p className="px-6 py-4 text-sm text-muted-foreground">No stack trace was sent.</p>
      )}
    </Card>
  );
}

export function FrameList({ frames, inAppOnly, minified = false }: { frames: FrameView[]; inAppOnly: boolean; minified?: boolean }) {
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
          <Frame key={`${showAll}-${minified}-${index}`} frame={minified ? asSent(frame) : frame} defaultOpen={index === 0} />
        ))}
      </ol>
    </>
  );
}

/** A mapped frame as the SDK sent it: the minified position, without the original's context lines. */
function asSent(frame: FrameView): FrameView {
  if (!frame.raw) return frame;
  return { ...frame, ...frame.raw, absPath: null, contextLine: null, preContext: [], postContext: [], raw: null, symbolication: null };
}

const basename = (path: string) => path.split(/[\\/]/).pop() || path;

/** What a frame is called: its function, else (an unsymbolicated native frame) `0x… in libfoo.so`. */
/** Names a symbolicator could not resolve: the address says more. */
const PLACEHOLDER_FUNCTIONS = new Set(["<redacted>", "<unknown>", "?"]);

export function frameName(frame: FrameView): string {
  if (frame.function && !(frame.instructionAddr && PLACEHOLDER_FUNCTIONS.has(frame.function))) return cleanText(frame.function);
  if (frame.instructionAddr) return cleanText(frame.package ? `${frame.instructionAddr} in ${basename(frame.package)}` : frame.instructionAddr);
  return "<anonymous>";
}

function frameLocation(frame: FrameView): string {
  const file = frame.filename ?? frame.absPath ?? frame.module ?? (frame.package ? basename(frame.package) : null) ?? "<unknown>";
  const position = [frame.lineno, frame.colno].filter((part): part is number => part !== null).join(":");
  return cleanText(position ? `${file}:${position}` : file);
}

function Frame({ frame, defaultOpen }: { frame: FrameView; defaultOpen: boolean }) {
  const hasContext = frame.contextLine !== null || frame.preContext.length > 0 || frame.postContext.length > 0 || frame.vars.length > 0;
  const [open, setOpen] = useState(defaultOpen && hasContext);
  const name = frameName(frame);
  const location = frameLocation(frame);
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
            {name}
          </span>
          {/* An address-only frame's name already says which binary (`0x… in libfoo.so`). */}
          {name.endsWith(` in ${location}`) ? null : (
            <>
              <span className="text-muted-foreground"> at </span>
              <span title={frame.absPath ? cleanText(frame.absPath) : undefined} data-testid="frame-location">
                {location}
              </span>
            </>
          )}
        </span>
        {frame.inApp ? (
          <Badge variant="outline" className="shrink-0 border-transparent bg-blue-500/15 text-blue-700 dark:text-blue-300">
            In app
          </Badge>
        ) : null}
      </button>
      {frame.symbolication && frame.symbolication !== "mapped" ? (
        <p className="px-10 pb-2 text-xs text-muted-foreground" data-testid="frame-symbolication" data-reason={frame.symbolication}>
          {SYMBOLICATION_REASON_LABELS[frame.symbolication]} <span className="font-mono">({frame.symbolication})</span>
        </p>
      ) : null}
      {open && (frame.contextLine !== null || frame.preContext.length > 0 || frame.postContext.length > 0) ? <ContextLines frame={frame} /> : null}
      {open && frame.vars.length > 0 ? (
        <div className="border-t bg-muted/20 px-4 py-2" data-testid="frame-vars">
          <KeyValueTable rows={frame.vars} />
        </div>
      ) : null}
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
