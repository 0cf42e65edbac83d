import { setTimeout as sleep } from "node:timers/promises";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { aiTokenReservations, aiTokenUsage } from "../db/schema/index";
import { askAgent, userMessage } from "../../../test/helpers/chat-stream";
import { scriptedModel, text, toolCalls, TURN_USAGE } from "../../../test/helpers/scripted-model";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { triageTenant } from "../../../test/helpers/triage-seed";
import { ANSWER_LEASE_MS } from "./chat.service";
import { utcToday } from "./token-usage.queries";

type Tenant = Awaited<ReturnType<typeof triageTenant>>;

const BUDGET = 3_000;
const ANSWER_CAP = 1_000;
/** Three tool steps and the answer: 4 × 120 tokens, and 13 for the title. */
const TOOL_STEPS = 3;
const ANSWER_TOKENS = (TOOL_STEPS + 1) * (TURN_USAGE.input + TURN_USAGE.output) + 13;
const BUDGET_SPENT = /^Your organization has used its daily AI token budget \([\d,]+ of 3,000 tokens\)\. It resets at midnight UTC\.$/;

/**
 * The daily token budget under parallel answers: each answer holds back its cap before it starts
 * and replaces it with its usage when it ends, however it ends (token-budget.queries.ts).
 */
describe("the daily token budget", () => {
  let server: TestServer;
  let model: MockLanguageModelV3;

  const ask = (tenant: Tenant, question: string) => askAgent(tenant.session, tenant.project.id, { id: crypto.randomUUID(), message: userMessage(question) });
  const spentBy = async (tenant: Tenant) => {
    const [row] = await server.database.db
      .select()
      .from(aiTokenUsage)
      .where(and(eq(aiTokenUsage.organizationId, tenant.org.id), eq(aiTokenUsage.day, utcToday())));
    return row ? row.inputTokens + row.outputTokens : 0;
  };
  const reservationsOf = (tenant: Tenant) => server.database.db.select().from(aiTokenReservations).where(eq(aiTokenReservations.organizationId, tenant.org.id));
  const setSpent = (tenant: Tenant, tokens: number) =>
    server.database.db.insert(aiTokenUsage).values({ organizationId: tenant.org.id, day: utcToday(), inputTokens: tokens, outputTokens: 0 });

  beforeAll(async () => {
    server = await startTestServer({
      env: { AI_DAILY_TOKEN_BUDGET: String(BUDGET), AI_ANSWER_TOKEN_CAP: String(ANSWER_CAP), AI_MAX_TOOL_STEPS: "20" },
      outside: { modelProvider: { modelId: "scripted", languageModel: () => model } },
    });
  }, 60_000);
  afterAll(() => server.close());

  it("lets ten parallel answers spend at most the budget plus one answer's cap, and refuses the others as a spent budget", async () => {
    const tenant = await triageTenant(server, "Budget race");
    // Each answer's first step waits a moment, so all ten are past the budget check before any ends.
    model = scriptedModel([
      async (options) => {
        const toolResults = options.prompt.filter((message) => message.role === "tool").length;
        if (toolResults === 0) await sleep(300);
        return toolResults < TOOL_STEPS ? toolCalls({ name: "searchIssues", input: {} }) : text("Nothing broke.");
      },
    ]);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, index) => ask(tenant, `Question ${index}`)));

    const answered = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    const spent = await spentBy(tenant);
    expect(spent).toBe(answered.length * ANSWER_TOKENS);
    // Before: all ten answered, 4,930 tokens of 3,000.
    expect(spent).toBeLessThanOrEqual(BUDGET + ANSWER_CAP);
    expect(answered.length).toBeGreaterThan(0);
    for (const answer of answered) expect(answer.text).toBe("Nothing broke.");
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.body.error.message).toMatch(BUDGET_SPENT);
    }
    expect(await reservationsOf(tenant)).toEqual([]);
  });

  it("holds an answer's cap while it is written and gives it back when the browser goes away", async () => {
    const tenant = await triageTenant(server, "Budget abort");
    // 2,000 used + 1,000 held by the answer below = the budget: nothing else may start meanwhile.
    await setSpent(tenant, BUDGET - ANSWER_CAP);
    let streamed = 0;
    model = slowModel(() => (streamed += 1));
    const browser = new AbortController();
    const response = await fetch(`${server.url}/api/v1/ai/agents/${tenant.project.id}/chat`, {
      method: "POST",
      signal: browser.signal,
      headers: { "content-type": "application/json", origin: server.url, cookie: tenant.session.cookieHeader() },
      body: JSON.stringify({ id: crypto.randomUUID(), message: userMessage("Tell me a long story") }),
    });
    const reader = response.body!.getReader();
    let received = "";
    while (!received.includes("word3")) received += new TextDecoder().decode((await reader.read()).value);
    expect((await reservationsOf(tenant)).map((row) => row.tokens)).toEqual([ANSWER_CAP]);
    const meanwhile = await ask(tenant, "Me too");
    expect(meanwhile.status).toBe(429);
    expect(meanwhile.body.error.message).toMatch(BUDGET_SPENT);
    expect(meanwhile.body.error.message).toContain("(3,000 of 3,000 tokens)");

    browser.abort();
    await vi.waitFor(async () => expect(await reservationsOf(tenant)).toEqual([]), { timeout: 10_000, interval: 100 });
    model = scriptedModel([() => text("Short.")]);
    const after = await ask(tenant, "Again");
    expect(after.status, after.raw).toBe(200);
    expect(after.text).toBe("Short.");
    expect(await reservationsOf(tenant)).toEqual([]);
    expect(streamed).toBe(1);
  });

  it("gives the cap back when the model fails", async () => {
    const tenant = await triageTenant(server, "Budget failure");
    await setSpent(tenant, BUDGET - ANSWER_CAP);
    model = scriptedModel([
      () => {
        throw new Error("the provider is down");
      },
    ]);
    const failed = await ask(tenant, "Anything?");
    expect(failed.status).toBe(200);
    expect(failed.chunks.some((chunk) => chunk.type === "error")).toBe(true);
    expect(await reservationsOf(tenant)).toEqual([]);
    model = scriptedModel([() => text("Back.")]);
    expect((await ask(tenant, "Again")).text).toBe("Back.");
  });

  it("stops an answer before it outgrows its cap", async () => {
    const tenant = await triageTenant(server, "Budget cap");
    model = scriptedModel([() => toolCalls({ name: "searchIssues", input: {} })]);
    const answer = await ask(tenant, "Loop forever");
    expect(answer.status).toBe(200);
    expect(answer.chunks.at(-1)?.type).toBe("finish");
    // Far fewer than AI_MAX_TOOL_STEPS (20): the steps of 120 tokens that fit 1,000 with the title's share.
    expect(model.doStreamCalls.length).toBeLessThan(ANSWER_CAP / (TURN_USAGE.input + TURN_USAGE.output));
    expect(await spentBy(tenant)).toBeLessThanOrEqual(ANSWER_CAP);
  });

  it("stops counting a reservation whose process died once it expires", async () => {
    const tenant = await triageTenant(server, "Budget expiry");
    const expired = new Date(Date.now() - 1_000);
    await server.database.db.insert(aiTokenReservations).values({ id: crypto.randomUUID(), organizationId: tenant.org.id, tokens: BUDGET, expiresAt: expired });
    model = scriptedModel([() => text("Still here.")]);
    expect((await ask(tenant, "Anyone?")).text).toBe("Still here.");
    expect(await reservationsOf(tenant)).toEqual([]);

    const live = new Date(Date.now() + ANSWER_LEASE_MS);
    await server.database.db.insert(aiTokenReservations).values({ id: crypto.randomUUID(), organizationId: tenant.org.id, tokens: BUDGET, expiresAt: live });
    const refused = await ask(tenant, "And now?");
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(BUDGET_SPENT);
  });
});

/** A model whose answer streams forty words, one every 50 ms, so a test can stop it halfway. */
function slowModel(onStream: () => void) {
  const words = Array.from({ length: 40 }, (_, index) => `word${index} `);
  return new MockLanguageModelV3({
    modelId: "slow",
    doStream: async () => {
      onStream();
      return { stream: simulateReadableStream({ chunks: text(words.join("")), chunkDelayInMs: 50 }) };
    },
  });
}
