import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { seedProject } from "../../../test/helpers/seed";
import { DEFAULT_CHAT_TITLE } from "../../shared/chat.inputs";
import { aiTokenUsage, conversations, projects, user } from "../db/schema/index";
import { finishAnswer, openConversationForAnswer } from "./answer.queries";
import { renameConversationRow, selectConversation, selectMessages } from "./conversation.queries";

let database: TestDatabase;
let organizationId: string;
let projectId: string;
let otherProjectId: string;
let ownerUserId: string;
let otherUserId: string;
const now = new Date("2026-11-25T10:00:00Z");
const minutesLater = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

async function newUser(name: string) {
  const [row] = await database.db
    .insert(user)
    .values({ name, email: `${name}-${randomUUID()}@example.com` })
    .returning();
  return row.id;
}

const opening = (id: string, overrides: Partial<Parameters<typeof openConversationForAnswer>[1]> = {}) => ({
  id,
  organizationId,
  projectId,
  ownerUserId,
  title: DEFAULT_CHAT_TITLE,
  dateFrom: new Date("2026-11-18T00:00:00Z"),
  dateTo: null,
  question: { messageId: "question-1", parts: [{ type: "text", text: "What broke?" }] },
  now,
  leaseUntil: minutesLater(5),
  ...overrides,
});

const finishing = (conversationId: string, overrides: Partial<Parameters<typeof finishAnswer>[1]> = {}) => ({
  organizationId,
  conversationId,
  reservationId: null,
  answer: { messageId: "answer-1", parts: [{ type: "text", text: "Two errors." }], inputTokens: 100, outputTokens: 20, modelId: "m" },
  usage: { inputTokens: 130, outputTokens: 25, day: "2026-11-25" },
  title: "Checkout errors",
  defaultTitle: DEFAULT_CHAT_TITLE,
  now: minutesLater(1),
  ...overrides,
});

const usageOf = async (day: string) =>
  (
    await database.db
      .select()
      .from(aiTokenUsage)
      .where(and(eq(aiTokenUsage.organizationId, organizationId), eq(aiTokenUsage.day, day)))
  )[0] ?? null;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ organizationId, projectId } = await seedProject(database.db, "answers"));
  const [other] = await database.db.insert(projects).values({ organizationId, name: "other", slug: "other", platform: "NODE_JS" }).returning();
  otherProjectId = other.id;
  ownerUserId = await newUser("owner");
  otherUserId = await newUser("other");
}, 60_000);

afterAll(() => database?.destroy());

describe("openConversationForAnswer", () => {
  it("creates a conversation with its question and the lease held, and refuses a second answer until the lease is released or expires", async () => {
    const id = randomUUID();
    const created = await openConversationForAnswer(database.db, opening(id));
    expect(created).toEqual({ id, projectId, title: DEFAULT_CHAT_TITLE, dateFrom: new Date("2026-11-18T00:00:00Z"), dateTo: null, isNew: true });
    const question = { messageId: "question-1", role: "user", position: 0, parts: [{ type: "text", text: "What broke?" }] };
    expect(await selectMessages(database.db, organizationId, id)).toMatchObject([question]);

    expect(await openConversationForAnswer(database.db, opening(id))).toBeNull();
    expect(await openConversationForAnswer(database.db, opening(id, { question: null }))).toBeNull();
    // A lease left by a dead process frees itself.
    expect(await openConversationForAnswer(database.db, opening(id, { now: minutesLater(6), leaseUntil: minutesLater(11) }))).toMatchObject({
      id,
      isNew: false,
    });
    // Leasing an existing conversation adds no message: its next question is saved with the history read.
    expect(await selectMessages(database.db, organizationId, id)).toMatchObject([question]);
  });

  it("never leases or re-owns another user's conversation, nor one of another project", async () => {
    const id = randomUUID();
    await openConversationForAnswer(database.db, opening(id));
    await finishAnswer(database.db, finishing(id, { answer: null, title: null, usage: { inputTokens: 0, outputTokens: 0, day: "2026-11-20" } }));

    const intruding = { messageId: "intruder", parts: [{ type: "text", text: "Mine now" }] };
    expect(await openConversationForAnswer(database.db, opening(id, { ownerUserId: otherUserId, question: intruding }))).toBeNull();
    expect(await openConversationForAnswer(database.db, opening(id, { projectId: otherProjectId, question: intruding }))).toBeNull();
    const [row] = await database.db.select().from(conversations).where(eq(conversations.id, id));
    expect(row).toMatchObject({ ownerUserId, projectId, answeringUntil: null });
    expect((await selectMessages(database.db, organizationId, id)).map((message) => message.messageId)).toEqual(["question-1"]);
    expect(await openConversationForAnswer(database.db, opening(id))).toMatchObject({ id, isNew: false });
  });

  it("creates nothing when asked only to continue (an approval for a conversation that does not exist)", async () => {
    const id = randomUUID();
    expect(await openConversationForAnswer(database.db, opening(id, { question: null }))).toBeNull();
    expect(await selectConversation(database.db, organizationId, ownerUserId, id)).toBeNull();
  });
});

describe("finishAnswer", () => {
  it("saves the answer, adds the usage, sets the generated title and releases the lease in one statement", async () => {
    const id = randomUUID();
    await openConversationForAnswer(database.db, opening(id));
    const before = await usageOf("2026-11-25");
    await finishAnswer(database.db, finishing(id));

    const messages = await selectMessages(database.db, organizationId, id);
    expect(messages).toMatchObject([
      { messageId: "question-1", role: "user", position: 0 },
      {
        messageId: "answer-1",
        role: "assistant",
        position: 1,
        parts: [{ type: "text", text: "Two errors." }],
        inputTokens: 100,
        outputTokens: 20,
        modelId: "m",
      },
    ]);
    const after = await usageOf("2026-11-25");
    expect(after!.inputTokens - (before?.inputTokens ?? 0)).toBe(130);
    expect(after!.outputTokens - (before?.outputTokens ?? 0)).toBe(25);
    const [row] = await database.db.select().from(conversations).where(eq(conversations.id, id));
    expect(row).toMatchObject({ title: "Checkout errors", answeringUntil: null, updatedAt: minutesLater(1) });
  });

  it("continues an answer under the same message id after an approval: new parts, usage added", async () => {
    const id = randomUUID();
    await openConversationForAnswer(database.db, opening(id));
    await finishAnswer(database.db, finishing(id));
    await openConversationForAnswer(database.db, opening(id, { question: null }));
    const continued = { messageId: "answer-1", parts: [{ type: "text", text: "Resolved it." }], inputTokens: 50, outputTokens: 5, modelId: "m2" };
    await finishAnswer(database.db, finishing(id, { answer: continued, title: null }));

    const messages = await selectMessages(database.db, organizationId, id);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatchObject({ parts: [{ type: "text", text: "Resolved it." }], inputTokens: 150, outputTokens: 25, modelId: "m2" });
  });

  it("keeps a title the user chose while the answer was written, and counts no usage row for an answer without tokens", async () => {
    const id = randomUUID();
    await openConversationForAnswer(database.db, opening(id));
    await renameConversationRow(database.db, organizationId, ownerUserId, id, "My own title");
    await finishAnswer(database.db, finishing(id, { answer: null, usage: { inputTokens: 0, outputTokens: 0, day: "2026-11-21" } }));

    expect((await selectMessages(database.db, organizationId, id)).map((message) => message.role)).toEqual(["user"]);
    expect(await usageOf("2026-11-21")).toBeNull();
    const [row] = await database.db.select().from(conversations).where(eq(conversations.id, id));
    expect(row).toMatchObject({ title: "My own title", answeringUntil: null });
  });
});
