/**
 * Issue 15: the AI agent's cost on the server.
 *   A. every read tool's `execute` on the 1,000,000-occurrence project of bench:queries (target p95 < 50 ms);
 *   B. the server's overhead per answer — the real app over HTTP, the OpenAI-compatible stand-in
 *      answering at once with two tool steps and a text — wall time minus the time inside the
 *      stand-in (target p95 < 30 ms);
 *   C. the process's memory over 1,000 conversations, each new with one answer (target: heap
 *      after 1,000 within +20 % of heap after 100, after a forced GC).
 *   npm run bench:chat [-- --occurrences 1000000 --issues 20000 --runs 50 --conversations 1000 --write]
 * The server is BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); the run
 * creates its own database there and drops it at the end. The npm script runs with --expose-gc.
 *   npm run bench:chat -- --smoke
 * seeds 3,000 occurrences on PGlite in memory (a throwaway database of DATABASE_URL's server when
 * that is set), calls every tool twice and answers 20 conversations: it fails on any wrong answer
 * or error, never on timings.
 */
import { parseBenchArgs } from "./bench-args";
import { openBenchDatabase } from "./bench-database";
import { benchChatAnswers, type AnswerFigures } from "./chat-answers";
import { benchReadTools, type ToolRow } from "./chat-tools";
import { appendResults, currentCommit, machineDescription } from "./report";
import { checkSeed, seedMillion } from "./seed-million";

const args = parseBenchArgs(process.argv.slice(2));
const OCCURRENCES = args.number("--occurrences", args.smoke ? 3_000 : 1_000_000);
const ISSUES = args.number("--issues", args.smoke ? 200 : 20_000);
const RUNS = args.number("--runs", args.smoke ? 2 : 50);
const WARMUPS = args.smoke ? 1 : 5;
const CONVERSATIONS = args.number("--conversations", args.smoke ? 20 : 1_000);
const ANSWER_WARMUPS = args.smoke ? 2 : 20;
/** Memory is sampled after 10 %, 50 % and 100 % of the conversations (100, 500 and 1,000 by default). */
const SAMPLE_AT = [...new Set([0.1, 0.5, 1].map((share) => Math.max(1, Math.round(CONVERSATIONS * share))))];
const TOOL_P95_MS = 50;
const OVERHEAD_P95_MS = 30;
const HEAP_GROWTH = 0.2;

const serverUrl = args.smoke ? process.env.DATABASE_URL : (process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
const bench = await openBenchDatabase(serverUrl, "faultline_bench_chat");
try {
  const seededAt = performance.now();
  const target = await seedMillion(bench.database.db, { issues: ISSUES, occurrences: OCCURRENCES, days: 90, otherTenants: 4 });
  console.log(`seeded ${OCCURRENCES} occurrences / ${ISSUES} issues on ${bench.engine} in ${Math.round(performance.now() - seededAt)} ms`);
  await checkSeed(bench.database.db, target.projectId, OCCURRENCES);
  const tools = await benchReadTools(bench, target, { runs: RUNS, warmups: WARMUPS });
  const answers = await benchChatAnswers(bench, { warmups: ANSWER_WARMUPS, conversations: CONVERSATIONS, sampleAt: SAMPLE_AT });
  report(tools, answers);
} catch (error) {
  console.error("bench:chat failed:", error);
  process.exitCode = 1;
} finally {
  await bench.close();
}
process.exit();

function heapGrowth(answers: AnswerFigures) {
  const first = answers.memory[0];
  const last = answers.memory.at(-1)!;
  return { first, last, share: (last.heapUsedMb - first.heapUsedMb) / first.heapUsedMb };
}

function report(tools: ToolRow[], answers: AnswerFigures) {
  const growth = heapGrowth(answers);
  const toolOk = (row: ToolRow) => row.p95 < TOOL_P95_MS && row.seqScans.length === 0;
  const overheadOk = answers.overhead.p95 < OVERHEAD_P95_MS;
  const memoryOk = growth.share < HEAP_GROWTH;
  const verdict = (ok: boolean) => (args.smoke ? "n/a (smoke)" : ok ? "pass" : "**FAIL**");
  const table = [
    `A. Read tools: \`execute\` as the chat calls it (owner's scope, schema-parsed input) on ${OCCURRENCES.toLocaleString("en")} occurrences over ${ISSUES.toLocaleString("en")} issues and 90 days (bench:queries' seed, 4 other organizations beside it); ${RUNS} timed runs per case after ${WARMUPS} warm-ups. Target p95 < ${TOOL_P95_MS} ms and no sequential scan of a large tenant table.`,
    "",
    "| tool call | p50 ms | p95 ms | max ms | sequential scans of tenant tables over 10,000 rows | target |",
    "| --- | ---: | ---: | ---: | --- | --- |",
    ...tools.map((r) => `| ${r.name} | ${r.p50} | ${r.p95} | ${r.max} | ${r.seqScans.length ? r.seqScans.join(", ") : "none"} | ${verdict(toolOk(r))} |`),
    "",
    `B. Whole answers over HTTP (the real app in-process on the same database, a signed-up owner, 60 ingested events; each answer a new conversation: searchIssues, getIssue, a text answer, then the title), the OpenAI-compatible stand-in answering at once; ${answers.answers.toLocaleString("en")} answers after ${ANSWER_WARMUPS} warm-ups. Overhead = the answer's wall time minus the time inside the stand-in. Target p95 < ${OVERHEAD_P95_MS} ms.`,
    "",
    "| per answer | p50 ms | p95 ms | max ms | target |",
    "| --- | ---: | ---: | ---: | --- |",
    `| server overhead | ${answers.overhead.p50} | ${answers.overhead.p95} | ${answers.overhead.max} | ${verdict(overheadOk)} |`,
    `| wall time (client) | ${answers.wall.p50} | ${answers.wall.p95} | ${answers.wall.max} | |`,
    `| inside the stand-in | ${answers.standIn.p50} | ${answers.standIn.p95} | ${answers.standIn.max} | |`,
    "",
    `CPU of the process (server, stand-in and client) per answer: ${answers.cpuMsPerAnswer} ms. Database transactions committed per answer (pg_stat_database, every statement outside a transaction counts one): ${answers.transactionsPerAnswer ?? "n/a"}.`,
    "",
    `C. Memory of the process (server, stand-in and client together) during B, ${answers.gc ? "after two forced GCs (--expose-gc)" : "**without a forced GC** (run with --expose-gc for steady figures)"}. Target: heap after the last sample within +${HEAP_GROWTH * 100} % of the first.`,
    "",
    "| after conversations | heap used MB | RSS MB |",
    "| ---: | ---: | ---: |",
    ...answers.memory.map((m) => `| ${m.conversations.toLocaleString("en")} | ${m.heapUsedMb} | ${m.rssMb} |`),
    "",
    `Heap ${growth.first.heapUsedMb} → ${growth.last.heapUsedMb} MB (${growth.share >= 0 ? "+" : ""}${Math.round(growth.share * 1000) / 10} %): ${verdict(memoryOk)}.`,
  ].join("\n");
  console.log(`\n${table}\n`);
  if (args.smoke) {
    console.log(`bench:chat smoke: ok (${tools.length} tool cases, ${answers.answers} answers on ${bench.engine}; timings at this size mean nothing)`);
    return;
  }
  if (args.write)
    appendResults(
      "bench:chat (issue 15)",
      { commit: currentCommit(), machine: machineDescription(bench.engine), method: "tools, server and stand-in in one process against the seeded database." },
      table,
    );
  const failed = [...tools.filter((r) => !toolOk(r)).map((r) => r.name), ...(overheadOk ? [] : ["server overhead"]), ...(memoryOk ? [] : ["memory"])];
  if (failed.length > 0) console.log(`over target: ${failed.join("; ")}`);
}
