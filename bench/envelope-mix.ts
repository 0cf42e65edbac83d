import { loadCaptures } from "../test/helpers/sdk-fixtures";

/** Error-event payloads from the real SDK captures (node envelopes and python store bodies). */
function fixtureEvents(): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (const folder of ["node", "python"] as const) {
    for (const capture of loadCaptures(folder).filter((c) => /-(event|store)\.json$/.test(c.file))) {
      // The capture tool recorded each body decoded as well; an envelope's event is its third line.
      events.push(JSON.parse(capture.url.includes("/store/") ? capture.body : capture.body.split("\n")[2]));
    }
  }
  return events;
}

/** Zipf(s=1) over n ranks: a few fingerprints are hot, most are rare — like real traffic. */
export function zipfSampler(n: number, random: () => number = Math.random) {
  const weights = Array.from({ length: n }, (_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  let sum = 0;
  for (const weight of weights) cumulative.push((sum += weight / total));
  return () => {
    const r = random();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/**
 * Envelopes built from the fixtures' events, each rank a distinct fingerprint (the thrown type
 * and the in-app functions carry the rank), with fresh event ids so nothing dedupes.
 */
export function createEnvelopeMix(fingerprints = 200, rewrite?: (event: Record<string, any>, rank: number) => void) {
  const templates = fixtureEvents();
  const sample = zipfSampler(fingerprints);
  const variants = Array.from({ length: fingerprints }, (_, rank) => {
    const event = structuredClone(templates[rank % templates.length]) as any;
    for (const exception of event.exception?.values ?? []) {
      exception.type = `${exception.type ?? "Error"}${rank}`;
      for (const frame of exception.stacktrace?.frames ?? []) if (frame.function) frame.function = `${frame.function}_${rank}`;
    }
    if (!event.exception && event.message) event.message = `${typeof event.message === "string" ? event.message : "message"} #${rank}`;
    rewrite?.(event, rank);
    delete event.event_id;
    const payload = JSON.stringify(event);
    return { head: payload.slice(0, -1), rank };
  });
  return () => {
    const variant = variants[sample()];
    const eventId = crypto.randomUUID().replaceAll("-", "");
    const item = `${variant.head},"event_id":"${eventId}"}`;
    return { eventId, body: `{"event_id":"${eventId}"}\n{"type":"event","length":${Buffer.byteLength(item)}}\n${item}\n` };
  };
}
