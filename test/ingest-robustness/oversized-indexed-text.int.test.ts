/**
 * Battery: texts too large for a btree index row. PostgreSQL refuses an index entry above about
 * 2,704 bytes (`54000 index row size … exceeds btree maximum`), after trying to compress it, so a
 * long multi-byte text that does not compress — a minified bundle's path, a CJK or emoji function
 * name — in an indexed column made its event unstorable. Every such text sent in every field that
 * reaches an indexed column must be stored, cut to whole characters.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueFingerprints, issueTagCounts, issueUsers, occurrences } from "../../src/server/db/schema/index";
import { INDEXED_TEXT_MAX_BYTES } from "../../src/server/ingest/store/indexed-text";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

type Project = { id: string; number: number; apiKey: string };

/**
 * `units` UTF-16 units of distinct characters (repeated ones compress below the limit): CJK
 * ideographs (3 UTF-8 bytes each) or, with `astral`, supplementary ones (surrogate pairs, 4 bytes).
 */
function incompressible(units: number, seed: number, astral = false): string {
  const chars: string[] = [];
  for (let i = 0; chars.length * (astral ? 2 : 1) < units; i++) {
    const step = ((i + seed) * 7919) % 20_000;
    chars.push(String.fromCodePoint(astral ? 0x20000 + step : 0x4e00 + step));
  }
  return chars.join("");
}

const eventId = () => crypto.randomUUID().replaceAll("-", "");
const bytes = (text: string) => Buffer.byteLength(text, "utf8");
/**
 * Whole characters (a lone surrogate would be stored as U+FFFD) from the start of what was sent; the
 * normaliser's own cut in UTF-16 units ends in "…".
 */
function isWholePrefix(stored: string, sent: string) {
  const kept = stored.endsWith("…") ? stored.slice(0, -1) : stored;
  return kept.length > 0 && sent.startsWith(kept) && !stored.includes("\ufffd") && Buffer.from(stored, "utf8").toString("utf8") === stored;
}

describe("texts longer than an index row, in every indexed column", () => {
  let server: TestServer;
  let project: Project;

  beforeAll(async () => {
    server = await startTestServer({ env: { LOG_LEVEL: "error" } });
    const { session } = await signUpVerified(server);
    await createOrganization(session, "Long Texts");
    project = (await session.mutation("project.create", { name: "wide", platform: "NODE_JS" })).data;
  }, 60_000);
  afterAll(() => server.close());

  const stored = async (eventIdSent: string) => {
    const [row] = await server.database.db.select().from(occurrences).where(eq(occurrences.eventId, eventIdSent));
    return row;
  };

  it.each([
    ["CJK", false],
    ["surrogate pairs", true],
  ])("stores a Sentry event whose crash frame, type, tags and user are %s beyond the limit", async (_name, astral) => {
    const seed = astral ? 1 : 2;
    // The crash frame is `path|function`: 1,024 + 1 + 512 units, as the normaliser keeps them.
    const filename = `/app/${incompressible(1100, seed, astral)}.js`;
    const fn = incompressible(600, seed + 3, astral);
    const type = `${incompressible(600, seed + 5, astral)}Error`;
    const tagKey = incompressible(300, seed + 7, astral);
    const tagValue = incompressible(300, seed + 11, astral);
    const userId = incompressible(300, seed + 13, astral);
    const id = eventId();
    const event = {
      event_id: id,
      level: "error",
      platform: "node",
      environment: incompressible(100, seed + 17, astral),
      release: incompressible(300, seed + 19, astral),
      transaction: incompressible(600, seed + 23, astral),
      culprit: incompressible(600, seed + 29, astral),
      tags: { [tagKey]: tagValue },
      user: { id: userId },
      exception: { values: [{ type, value: incompressible(1536, seed + 31, astral), stacktrace: { frames: [{ filename, function: fn, in_app: true }] } }] },
    };
    const body = `${JSON.stringify({ event_id: id })}\n{"type":"event"}\n${JSON.stringify(event)}\n`;
    const response = await fetch(`${server.url}/api/${project.number}/envelope/?sentry_key=${project.apiKey}`, { method: "POST", body });
    await response.arrayBuffer();
    expect(response.status).toBe(200);

    const occurrence = await stored(id);
    expect(occurrence).toBeDefined();
    const [fingerprint] = await server.database.db.select().from(issueFingerprints).where(eq(issueFingerprints.issueId, occurrence.issueId));
    expect(bytes(fingerprint.crashFrame!)).toBeLessThanOrEqual(INDEXED_TEXT_MAX_BYTES);
    // The path as grouping normalises it (deploy root and extension dropped) comes first.
    expect(isWholePrefix(fingerprint.crashFrame!, filename.slice("/app/".length))).toBe(true);
    expect(bytes(fingerprint.exceptionType!)).toBeLessThanOrEqual(INDEXED_TEXT_MAX_BYTES);
    expect(isWholePrefix(fingerprint.exceptionType!, type)).toBe(true);

    const [user] = await server.database.db.select().from(issueUsers).where(eq(issueUsers.issueId, occurrence.issueId));
    expect(bytes(user.userKey)).toBeLessThanOrEqual(INDEXED_TEXT_MAX_BYTES);
    expect(isWholePrefix(user.userKey, `id:${userId}`)).toBe(true);

    // Tag counts are written about once a second, beside the batches.
    await expect
      .poll(async () => (await server.database.db.select().from(issueTagCounts).where(eq(issueTagCounts.issueId, occurrence.issueId))).length, {
        timeout: 5_000,
      })
      .toBeGreaterThan(0);
    const tags = await server.database.db.select().from(issueTagCounts).where(eq(issueTagCounts.issueId, occurrence.issueId));
    const custom = tags.find((tag) => !["environment", "release", "level", "handled"].includes(tag.key))!;
    expect(bytes(custom.key)).toBeLessThanOrEqual(INDEXED_TEXT_MAX_BYTES);
    expect(bytes(custom.value)).toBeLessThanOrEqual(INDEXED_TEXT_MAX_BYTES);
    expect(isWholePrefix(custom.key, tagKey)).toBe(true);
    expect(isWholePrefix(custom.value, tagValue)).toBe(true);
    for (const tag of tags) expect(isWholePrefix(tag.value, tag.value)).toBe(true);
  });

  it.each([
    ["frames", false],
    ["a stack string", true],
  ])("stores a native exception whose crash frame comes from %s beyond the limit", async (_name, asStack) => {
    const fn = incompressible(asStack ? 1200 : 512, 41, false);
    const path = `/srv/${incompressible(asStack ? 800 : 1100, 43, false)}.js`;
    const stacktrace = asStack
      ? { stack: `Error: wide\n    at ${fn} (${path}:10:5)` }
      : { frames: [{ filename: path, absolutePath: path, functionName: fn, lineNumber: 10, inApp: true }] };
    const name = `${incompressible(600, 47, true)}Error`;
    const response = await fetch(`${server.url}/api/v1/exceptions`, {
      method: "POST",
      body: JSON.stringify({ environment: "PRODUCTION", name, message: `native ${asStack}`, stacktrace }),
      headers: { "x-api-key": project.apiKey, "content-type": "application/json" },
    });
    await response.arrayBuffer();
    expect(response.status).toBe(201);
    const [occurrence] = await server.database.db
      .select()
      .from(occurrences)
      .where(eq(occurrences.message, `native ${asStack}`));
    const [fingerprint] = await server.database.db.select().from(issueFingerprints).where(eq(issueFingerprints.issueId, occurrence.issueId));
    expect(bytes(fingerprint.crashFrame!)).toBeLessThanOrEqual(INDEXED_TEXT_MAX_BYTES);
    expect(isWholePrefix(fingerprint.crashFrame!, path.slice("/srv/".length))).toBe(true);
    expect(isWholePrefix(fingerprint.exceptionType!, name)).toBe(true);
  });
});
