/**
 * Issue 15: the AI agent's cost on the server.
 *   A. every read tool's `execute` on the 1,000,000-occurrence project of bench:queries (target p95 < 50 ms);
 *   B. the server's overhead per answer — the real app over HTTP, the OpenAI-compatible stand-in
 *      answering at once with two tool steps and a text — wall time minus the time inside the
 *      stand-in (target p95 < 30 ms), with the app in its own process (as `npm start` runs it;
 *      PostgreSQL only, judged) and in the bench process beside the client and the stand-in;
 *   C. the bench process's memory over 1,000 conversations answered in it, each new with one
 *      answer (target: heap after 1,000 within +20 % of heap after 100, after a forced GC).
 *   npm run bench:chat [-- --occurrences 1000000 --issues 20000 --runs 50 --conversations 1000 --write]
 * The server is BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); the run
 * creates its own database there and drops it at the end. The npm script runs with --expose-gc.
 *   npm run bench:chat -- --smoke
 * seeds 3,000 occurrences on PGlite in memory (a throwaway database of DATABASE_URL's server when
 * that is set), calls every tool twice and answers 20 conversations in each placement it can: it
 * fails on any wrong answer or error, never on timings.
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
const PLACEMENT = { "own-process": "app in its own process", "in-process": "app in the bench process" } as const;

const serverUrl = args.smoke ? process.env.DATABASE_URL : (process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
const bench = await openBenchDatabase(serverUrl, "faultline_bench_chat");
try {
  const seededAt = performance.now();
  const target = await seedMillion(bench.database.db, { issues: ISSUES, occurrences: OCCURRENCES, days: 90, otherTenants: 4 });
  console.log(`seeded ${OCCURRENCES} occurrences / ${ISSUES} issues on ${bench.engine} in ${Math.round(performance.now() - seededAt)} ms`);
  await checkSeed(bench.database.db, target.projectId, OCCURRENCES);
  const tools = await benchReadTools(bench, target, { runs: RUNS, warmups: WARMUPS });
  const answers = await benchChatAnswers(bench, { placement: "in-process", warmups: ANSWER_WARMUPS, conversations: CONVERSATIONS, sampleAt: SAMPLE_AT });
  // The app as `npm start` runs it needs a database another process can open: PostgreSQL.
  const ownProcess = bench.url
    ? await benchChatAnswers(bench, { placement: "own-process", warmups: ANSWER_WARMUPS, conversations: CONVERSATIONS, sampleAt: [] })
    : null;
  report(tools, answers, ownProcess);
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

function answerRows(figures: AnswerFigures, verdict: string) {
  const place = PLACEMENT[figures.placement];
  return [
    `| server overhead, ${place} | ${figures.overhead.p50} | ${figures.overhead.p95} | ${figures.overhead.max} | ${verdict} |`,
    `| wall time (client), ${place} | ${figures.wall.p50} | ${figures.wall.p95} | ${figures.wall.max} | |`,
    `| inside the stand-in, ${place} | ${figures.standIn.p50} | ${figures.standIn.p95} | ${figures.standIn.max} | |`,
  ];
}

function report(tools: ToolRow[], answers: AnswerFigures, ownProcess: AnswerFigures | null) {
  const growth = heapGrowth(answers);
  const toolOk = (row: ToolRow) => row.p95 < TOOL_P95_MS && row.seqScans.length === 0;
  // Judged on the app as deployed (its own process) when the database allows that run.
  const judged = ownProcess ?? answers;
  const overheadOk = judged.overhead.p95 < OVERHEAD_P95_MS;
  const memoryOk = growth.share < HEAP_GROWTH;
  const verdict = (ok: boolean) => (args.smoke ? "n/a (smoke)" : ok ? "pass" : "**FAIL**");
  const table = [
    `A. Read tools: \`execute\` as the chat calls it (owner's scope, schema-parsed input) on ${OCCURRENCES.toLocaleString("en")} occurrences over ${ISSUES.toLocaleString("en")} issues and 90 days (bench:queries' seed, 4 other organizations beside it); ${RUNS} timed runs per case after ${WARMUPS} warm-ups. Target p95 < ${TOOL_P95_MS} ms and no sequential scan of a large tenant table.`,
    "",
    "| tool call | p50 ms | p95 ms | max ms | sequential scans of tenant tables over 10,000 rows | target |",
    "| --- | ---: | ---: | ---: | --- | --- |",
    ...tools.map((r) => `| ${r.name} | ${r.p50} | ${r.p95} | ${r.max} | ${r.seqScans.length ? r.seqScans.join(", ") : "none"} | ${verdict(toolOk(r))} |`),
    "",
    `B. Whole answers over HTTP (a signed-up owner, 60 ingested events; each answer a new conversation: searchIssues, getIssue, a text answer, the title asked beside them), the OpenAI-compatible stand-in answering at once; ${answers.answers.toLocaleString("en")} answers after ${ANSWER_WARMUPS} warm-ups per placement. Overhead = the answer's wall time minus the time inside the stand-in. The app runs in its own process as \`npm start\` runs it, with the client and the stand-in in the bench process as a browser and a model server are elsewhere (PostgreSQL only), and in the bench process, sharing one thread with the client and the stand-in. Target p95 < ${OVERHEAD_P95_MS} ms, judged on the ${PLACEMENT[judged.placement]}.`,
    "",
    "| per answer | p50 ms | p95 ms | max ms | target |",
    "| --- | ---: | ---: | ---: | --- |",
    ...(ownProcess ? answerRows(ownProcess, verdict(overheadOk)) : []),
    ...answerRows(answers, ownProcess ? "" : verdict(overheadOk)),
    "",
    [
      ownProcess
        ? `CPU per answer of the app's own process: ${ownProcess.appCpuMsPerAnswer} ms (the bench process's client and stand-in: ${ownProcess.cpuMsPerAnswer} ms).`
        : "",
      `CPU per answer of the bench process with the app in it (app, stand-in and client): ${answers.cpuMsPerAnswer} ms.`,
      `Database transactions committed per answer (pg_stat_database, every statement outside a transaction counts one): ${answers.transactionsPerAnswer ?? "n/a"}.`,
    ]
      .filter(Boolean)
      .join(" "),
    "",
    `C. Memory of the bench process (app, stand-in and client together) while it answered B in-process, ${answers.gc ? "after two forced GCs (--expose-gc)" : "**without a forced GC** (run with --expose-gc for steady figures)"}. Target: heap after the last sample within +${HEAP_GROWTH * 100} % of the first.`,
    "",
    "| after conversations | heap used MB | RSS MB |",
    "| ---: | ---: | ---: |",
    ...answers.memory.map((m) => `| ${m.conversations.toLocaleString("en")} | ${m.heapUsedMb} | ${m.rssMb} |`),
    "",
    `Heap ${growth.first.heapUsedMb} → ${growth.last.heapUsedMb} MB (${growth.share >= 0 ? "+" : ""}${Math.round(growth.share * 1000) / 10} %): ${verdict(memoryOk)}.`,
  ].join("\n");
  console.log(`\n${table}\n`);
  if (args.smoke) {
    console.log(
      `bench:chat smoke: ok (${tools.length} tool cases, ${answers.answers} answers${ownProcess ? ` in this process and ${ownProcess.answers} in the app's own` : ""} on ${bench.engine}; timings at this size mean nothing)`,
    );
    return;
  }
  if (args.write)
    appendResults(
      "bench:chat (issue 15)",
      {
        commit: currentCommit(),
        machine: machineDescription(bench.engine),
        method: "tools in the bench process; answers with the app in its own process and in the bench process, against the seeded database.",
      },
      table,
    );
  const failed = [...tools.filter((r) => !toolOk(r)).map((r) => r.name), ...(overheadOk ? [] : ["server overhead"]), ...(memoryOk ? [] : ["memory"])];
  if (failed.length > 0) console.log(`over target: ${failed.join("; ")}`);
}
