import { gzipSync } from "node:zlib";

/**
 * The "one DSN holder stalls every tenant" envelope of issue 31: many large, highly compressible
 * error events, each inside the per-event limit (INGEST_MAX_EVENT_BYTES) and together inside the
 * decompressed-body limit. Every byte is kept by the normaliser (frames of 1 KiB context lines,
 * breadcrumbs of long messages), so the whole pipeline — parse, normalise, group, serialise,
 * store — pays for it. Event ids are fresh, so nothing dedupes.
 */
export function heavyEnvelope({ events = 35, eventBytes = 540 * 1024, tag = "heavy" }: { events?: number; eventBytes?: number; tag?: string } = {}) {
  const eventIds: string[] = [];
  const lines = [JSON.stringify({ sent_at: new Date().toISOString() })];
  for (let i = 0; i < events; i++) {
    const eventId = crypto.randomUUID().replaceAll("-", "");
    eventIds.push(eventId);
    const item = JSON.stringify(heavyEvent(eventId, eventBytes, `${tag}${i % 5}`));
    lines.push(JSON.stringify({ type: "event", length: Buffer.byteLength(item) }), item);
  }
  const body = Buffer.from(`${lines.join("\n")}\n`);
  return { eventIds, body, gzipped: gzipSync(body, { level: 9 }) };
}

/** One error event of about `bytes` JSON bytes, almost all of it context lines and breadcrumb messages. */
export function heavyEvent(eventId: string, bytes: number, issue: string) {
  const line = (n: number) => `const value${n} = compute(${"x".repeat(900)}); // ${issue}`;
  const frame = (n: number) => ({
    filename: `/app/src/module${n % 40}.js`,
    function: `handler${n % 40}`,
    lineno: n + 1,
    colno: 7,
    in_app: true,
    context_line: line(n),
    pre_context: [line(n - 2), line(n - 1)],
    post_context: [line(n + 1), line(n + 2)],
  });
  const frameBytes = JSON.stringify(frame(0)).length;
  const frames = Math.min(250, Math.floor((bytes * 0.8) / frameBytes));
  const crumbBytes = Math.max(0, bytes - frames * frameBytes - 1000);
  const crumbs = Math.min(100, Math.ceil(crumbBytes / 8000));
  return {
    event_id: eventId,
    level: "error",
    platform: "node",
    exception: { values: [{ type: "HeavyError", value: `heavy ${issue}`, stacktrace: { frames: Array.from({ length: frames }, (_, n) => frame(n)) } }] },
    breadcrumbs: {
      values: Array.from({ length: crumbs }, (_, n) => ({
        category: "log",
        message: `${issue} crumb ${n} ${"y".repeat(Math.floor(crumbBytes / crumbs) - 80)}`,
      })),
    },
  };
}
