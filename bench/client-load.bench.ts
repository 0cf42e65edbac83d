/**
 * Issue 37 item 13: what the issues page costs a browser. The built client (`npm run build`,
 * rebuilt first when stale) served by the app, a signed-up user with a project of ingested events,
 * and Chromium (playwright-core, /usr/bin/chromium) opening /dashboard/issues?projectId=… in a
 * fresh profile (a cold load: empty cache), until the issue rows show and the network has been
 * idle for 500 ms. Counted from the DevTools protocol's Network events: every request, and the
 * bytes each took on the wire (loadingFinished.encodedDataLength: compressed body plus headers).
 * Then the same page reloaded in that profile: what still goes to the network.
 * Target: a cold load under 250 KB on the wire.
 *   npm run bench:client [-- --loads 3] [-- --write]
 *   npm run bench:client -- --list       (and every request of the last cold load)
 *   npm run bench:client -- --smoke      (one load; fails only if the page does not work)
 */
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { ensureClientBuilt } from "../src/server/http/client-build";
import { createLogger } from "../src/server/logger";
import { CHROMIUM, hasChromium, launchChromium } from "../test/helpers/browser";
import { startTestServer } from "../test/helpers/test-server";
import { fail, parseBenchArgs } from "./bench-args";
import { openBenchDatabase } from "./bench-database";
import { signUpChatTenant } from "./chat-tenant";
import { appendResults, currentCommit, machineDescription } from "./report";

const args = parseBenchArgs(process.argv.slice(2));
const LOADS = args.number("--loads", args.smoke ? 1 : 3);
const EVENTS = args.smoke ? 20 : 100;
const TARGET_BYTES = 250 * 1024;
if (!hasChromium) fail(`no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);

interface Transfer {
  url: string;
  type: string;
  encoding: string;
  bytes: number;
  fromCache: boolean;
}

/** Records every request of a page through the DevTools protocol until `stop()`. */
async function recordNetwork(context: BrowserContext, page: Page) {
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const transfers = new Map<string, Transfer>();
  cdp.on("Network.requestWillBeSent", (event) => {
    if (event.request.url.startsWith("data:")) return;
    transfers.set(event.requestId, { url: event.request.url, type: event.type ?? "Other", encoding: "", bytes: 0, fromCache: false });
  });
  cdp.on("Network.requestServedFromCache", (event) => {
    const transfer = transfers.get(event.requestId);
    if (transfer) transfer.fromCache = true;
  });
  cdp.on("Network.responseReceived", (event) => {
    const transfer = transfers.get(event.requestId);
    if (!transfer) return;
    const headers = Object.fromEntries(Object.entries(event.response.headers).map(([name, value]) => [name.toLowerCase(), String(value)]));
    transfer.encoding = headers["content-encoding"] ?? "identity";
    if (event.response.fromDiskCache || event.response.fromPrefetchCache) transfer.fromCache = true;
  });
  cdp.on("Network.loadingFinished", (event) => {
    const transfer = transfers.get(event.requestId);
    if (transfer) transfer.bytes = event.encodedDataLength;
  });
  return {
    take() {
      const taken = [...transfers.values()];
      transfers.clear();
      return taken;
    },
  };
}

async function waitForIssues(page: Page) {
  await page.getByTestId("issue-row").first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState("networkidle");
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const isApi = (transfer: Transfer) => new URL(transfer.url).pathname.startsWith("/api/");

interface LoadFigures {
  requests: number;
  bytes: number;
  staticRequests: number;
  staticBytes: number;
  apiRequests: number;
  apiBytes: number;
  encodings: string;
  largest: Transfer[];
  cold: Transfer[];
  repeatNetworkRequests: number;
  repeatBytes: number;
}

function summarise(cold: Transfer[], repeat: Transfer[]): LoadFigures {
  const sum = (list: Transfer[]) => list.reduce((total, transfer) => total + transfer.bytes, 0);
  const statics = cold.filter((transfer) => !isApi(transfer));
  const api = cold.filter(isApi);
  const encodings = new Map<string, number>();
  for (const transfer of statics) encodings.set(transfer.encoding, (encodings.get(transfer.encoding) ?? 0) + 1);
  const fetched = repeat.filter((transfer) => !transfer.fromCache);
  return {
    requests: cold.length,
    bytes: sum(cold),
    staticRequests: statics.length,
    staticBytes: sum(statics),
    apiRequests: api.length,
    apiBytes: sum(api),
    encodings: [...encodings].map(([name, count]) => `${name} ${count}`).join(", "),
    largest: [...cold].sort((a, b) => b.bytes - a.bytes).slice(0, 5),
    cold,
    repeatNetworkRequests: fetched.length,
    repeatBytes: sum(fetched),
  };
}

const logger = createLogger("warn");
await ensureClientBuilt(logger);
const bench = await openBenchDatabase(process.env.DATABASE_URL, "bench_client");
const server = await startTestServer({ database: { ...bench.database, destroy: async () => {} }, serveClient: true, env: { LOG_LEVEL: "warn" } });
const browser = await launchChromium();
const loads: LoadFigures[] = [];
try {
  const tenant = await signUpChatTenant({ url: server.url, outbox: async () => server.mailer.outbox() }, { events: EVENTS });
  const issuesUrl = `${server.url}/dashboard/issues?projectId=${tenant.projectId}`;
  for (let load = 0; load < LOADS; load++) {
    // A fresh profile each time: an empty HTTP cache, only the session cookie.
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const problems: string[] = [];
    try {
      await context.addCookies(
        [...tenant.session.cookies].map(([name, value]) => ({ name, value, domain: "localhost", path: "/", httpOnly: true, sameSite: "Lax" as const })),
      );
      const page = await context.newPage();
      page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console: ${message.text()}`);
      });
      const network = await recordNetwork(context, page);
      const shown = async (step: string) =>
        waitForIssues(page).catch((error: unknown) => {
          throw new Error(`${step}: the issue rows never showed (${String(error)})\n${problems.join("\n")}`);
        });
      await page.goto(issuesUrl);
      await shown("cold load");
      const cold = network.take();
      await page.reload();
      await shown("reload");
      loads.push(summarise(cold, network.take()));
    } finally {
      await context.close();
    }
    if (problems.length > 0) throw new Error(`the issues page logged errors:\n${problems.join("\n")}`);
  }
} finally {
  await browser.close();
  await server.close();
  await bench.close();
}

const median = (pick: (figures: LoadFigures) => number) => {
  const values = loads.map(pick).sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)];
};
const table = [
  "| | requests | KB on the wire |",
  "| --- | ---: | ---: |",
  `| cold load, everything | ${median((f) => f.requests)} | ${kb(median((f) => f.bytes))} |`,
  `| of which the client (HTML, JS, CSS, icons) | ${median((f) => f.staticRequests)} | ${kb(median((f) => f.staticBytes))} |`,
  `| of which the API (/api/…) | ${median((f) => f.apiRequests)} | ${kb(median((f) => f.apiBytes))} |`,
  `| reload in the same profile: what still goes to the network | ${median((f) => f.repeatNetworkRequests)} | ${kb(median((f) => f.repeatBytes))} |`,
].join("\n");
const last = loads.at(-1)!;
const largest = last.largest.map((transfer) => `${new URL(transfer.url).pathname} ${kb(transfer.bytes)} KB (${transfer.encoding})`).join("; ");
const verdict = median((f) => f.bytes) < TARGET_BYTES ? "met" : "MISSED";
console.log(`\nbench:client: the issues page, ${LOADS} cold load(s) (median), ${bench.engine}\n\n${table}\n`);
console.log(`Client responses by encoding: ${last.encodings}. Largest: ${largest}.`);
if (process.argv.includes("--list"))
  for (const transfer of last.cold)
    console.log(`${kb(transfer.bytes).padStart(7)} KB ${transfer.encoding.padEnd(8)} ${transfer.type.padEnd(10)} ${new URL(transfer.url).pathname}`);
console.log(`Target: cold load < ${kb(TARGET_BYTES)} KB on the wire — ${verdict}.`);

if (args.write) {
  appendResults(
    "bench:client (issue 37 item 13)",
    {
      commit: currentCommit(),
      machine: machineDescription(bench.engine),
      method: `\`npm run bench:client -- --write\`: ${LOADS} cold loads of the issues page (fresh Chromium profile, signed in, a project of ${EVENTS} ingested events), median; bytes are DevTools' encodedDataLength (body as sent plus headers). Client responses by encoding: ${last.encodings}. Largest: ${largest}. Target < 250 KB: ${verdict}.`,
    },
    table,
  );
}
