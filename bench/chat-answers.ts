/**
 * bench:chat, parts B and C: whole answers through the real app — HTTP, session, the chat
 * service, the AI SDK loop, two tool steps, the history saved — against the OpenAI-compatible
 * stand-in answering at once. The server's overhead per answer is the answer's wall time minus the
 * time spent inside the stand-in. The app runs in this process (its memory is sampled as the
 * conversations pile up: part C), or in its own, as `npm start` runs it, beside this process's
 * client and stand-in (its CPU per answer read from /proc).
 */
import { createModelProvider } from "../src/server/chat/model-factory";
import { askAgent, userMessage } from "../test/helpers/chat-stream";
import { startAppProcess } from "../test/helpers/app-process";
import { startTestServer } from "../test/helpers/test-server";
import { startOpenAiCompatibleStandIn, type ChatCompletionRequest, type StandInReply } from "../test/stand-ins/openai-compatible.server";
import { sql } from "drizzle-orm";
import type { Db } from "../src/server/db/client";
import { executeRows } from "../src/server/db/execute";
import type { BenchDatabase } from "./bench-database";
import { signUpChatTenant, type ChatApp } from "./chat-tenant";
import { cpuSeconds } from "./process-cpu";
import { percentiles, type Percentiles } from "./timing";

export interface MemorySample {
  conversations: number;
  heapUsedMb: number;
  rssMb: number;
}

/** Where the app runs: in this process beside the client and the stand-in, or in its own (as `npm start` runs it). */
export type AppPlacement = "in-process" | "own-process";

export interface AnswerFigures {
  placement: AppPlacement;
  answers: number;
  overhead: Percentiles;
  wall: Percentiles;
  standIn: Percentiles;
  memory: MemorySample[];
  gc: boolean;
  /** Transactions (each statement outside one counts as one) the database committed per answer, from pg_stat_database. */
  transactionsPerAnswer: number | null;
  /** CPU time of this process per answer: server, stand-in and client together in-process, the client and the stand-in otherwise. */
  cpuMsPerAnswer: number;
  /** CPU time of the app's own process per answer (own-process only). */
  appCpuMsPerAnswer: number | null;
}

interface AppUnderTest extends ChatApp {
  /** The app's own process, when it has one. */
  pid: number | null;
  close(): Promise<void>;
}

async function startApp(bench: BenchDatabase, placement: AppPlacement, modelBaseUrl: string): Promise<AppUnderTest> {
  const model = { AI_PROVIDER: "openai-compatible", AI_BASE_URL: modelBaseUrl, AI_MODEL: "bench-model", AI_API_KEY: "bench" } as const;
  if (placement === "own-process") {
    if (!bench.url) throw new Error("the app runs in its own process on PostgreSQL only (PGlite in memory is this process's)");
    const app = await startAppProcess({ ...model, DATABASE_URL: bench.url, DEV_OUTBOX: "true" });
    return {
      url: app.url,
      pid: app.child.pid!,
      outbox: async () => (await fetch(`${app.url}/dev/outbox.json`)).json(),
      close: async () => {
        app.child.kill("SIGTERM");
        await app.exited;
      },
    };
  }
  // LOG_LEVEL warn: the test server keeps its log lines in memory, which part C would count.
  const server = await startTestServer({
    database: { ...bench.database, destroy: async () => {} },
    env: { LOG_LEVEL: "warn" },
    outside: { modelProvider: createModelProvider(model) },
  });
  return { url: server.url, pid: null, outbox: async () => server.mailer.outbox(), close: () => server.close() };
}

/** Committed transactions of this database so far; PostgreSQL's statistics lag by up to a second, so wait first. */
async function committedTransactions(db: Db) {
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const [row] = await executeRows<{ n: number }>(db, sql`select xact_commit::float8 as n from pg_stat_database where datname = current_database()`);
  return row ? Number(row.n) : null;
}

const ANSWER = "Two checkout errors, both today.";
/** Requests to the stand-in per answer: three streamed steps (two tool calls, the text) and the title. */
const REQUESTS_PER_ANSWER = 4;
const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

export async function benchChatAnswers(
  bench: BenchDatabase,
  { placement, warmups, conversations, sampleAt }: { placement: AppPlacement; warmups: number; conversations: number; sampleAt: number[] },
): Promise<AnswerFigures> {
  let issueId = "";
  // A scripted model that answers at once: searchIssues, then getIssue on the busiest issue, then text.
  const script = (request: ChatCompletionRequest): StandInReply => {
    if (!request.stream) return { text: "Checkout errors today" };
    const toolResults = request.messages.filter((message) => message.role === "tool").length;
    if (toolResults === 0) return { toolCalls: [{ name: "searchIssues", args: { sort: "eventCount" } }] };
    if (toolResults === 1) return { toolCalls: [{ name: "getIssue", args: { issueId } }] };
    return { text: ANSWER };
  };
  const served: { startedAt: number; endedAt: number }[] = [];
  const standIn = await startOpenAiCompatibleStandIn(script, { keepRequests: false, onServed: (span) => served.push(span) });
  const server = await startApp(bench, placement, standIn.baseUrl);
  try {
    const tenant = await signUpChatTenant(server, { events: 60 });
    issueId = tenant.issueId;
    const gc = (globalThis as { gc?: () => void }).gc;

    const answerOnce = async (n: number) => {
      served.length = 0;
      const startedAt = performance.now();
      const answer = await askAgent(tenant.session, tenant.projectId, { id: crypto.randomUUID(), message: userMessage("What broke today?") });
      const endedAt = performance.now();
      const toolOutputs = answer.chunks.filter((chunk) => chunk.type === "tool-output-available").length;
      const error = answer.chunks.find((chunk) => chunk.type === "error" || chunk.type === "tool-output-error");
      if (answer.status !== 200 || toolOutputs !== 2 || answer.text !== ANSWER || error)
        throw new Error(`answer ${n}: status ${answer.status}, ${toolOutputs} tool outputs, text ${JSON.stringify(answer.text)}: ${answer.raw.slice(0, 1000)}`);
      // The title is asked for when the answer has been saved; wait for it so it does not run into the next answer.
      const deadline = Date.now() + 10_000;
      while (served.length < REQUESTS_PER_ANSWER && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
      if (served.length < REQUESTS_PER_ANSWER) throw new Error(`answer ${n}: the stand-in served ${served.length} requests, expected ${REQUESTS_PER_ANSWER}`);
      // Only what overlaps the answer counts: a title asked for after the last byte is not in its wall time.
      const inStandIn = served.reduce((sum, span) => sum + Math.max(0, Math.min(span.endedAt, endedAt) - Math.max(span.startedAt, startedAt)), 0);
      return { wall: endedAt - startedAt, inStandIn };
    };

    for (let n = 1; n <= warmups; n++) await answerOnce(n);
    const transactionsBefore = await committedTransactions(bench.database.db);
    const appCpuBefore = server.pid === null ? 0 : cpuSeconds(server.pid);
    let cpuMicros = 0;
    const wall: number[] = [];
    const inStandIn: number[] = [];
    const overhead: number[] = [];
    const memory: MemorySample[] = [];
    for (let n = 1; n <= conversations; n++) {
      const cpuBefore = process.cpuUsage();
      const timed = await answerOnce(warmups + n);
      const cpu = process.cpuUsage(cpuBefore);
      cpuMicros += cpu.user + cpu.system;
      wall.push(timed.wall);
      inStandIn.push(timed.inStandIn);
      overhead.push(timed.wall - timed.inStandIn);
      if (placement === "in-process" && sampleAt.includes(n)) {
        // Twice: a first collection can leave objects with finalizers for the second.
        gc?.();
        gc?.();
        const usage = process.memoryUsage();
        const sample = { conversations: n, heapUsedMb: mb(usage.heapUsed), rssMb: mb(usage.rss) };
        console.log(JSON.stringify(sample));
        memory.push(sample);
      }
    }
    const appCpuMs = server.pid === null ? null : (cpuSeconds(server.pid) - appCpuBefore) * 1_000;
    const transactionsAfter = await committedTransactions(bench.database.db);
    // The memory samples' own statements are none; the two reads of the counter add one each.
    const transactionsPerAnswer =
      transactionsBefore === null || transactionsAfter === null ? null : Math.round(((transactionsAfter - transactionsBefore - 1) / conversations) * 10) / 10;
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    return {
      placement,
      answers: conversations,
      overhead: percentiles(sorted(overhead)),
      wall: percentiles(sorted(wall)),
      standIn: percentiles(sorted(inStandIn)),
      memory,
      gc: gc !== undefined,
      transactionsPerAnswer,
      cpuMsPerAnswer: Math.round(cpuMicros / conversations / 100) / 10,
      appCpuMsPerAnswer: appCpuMs === null ? null : Math.round((appCpuMs / conversations) * 10) / 10,
    };
  } finally {
    await server.close();
    await standIn.close();
  }
}
