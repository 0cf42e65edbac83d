// A real @sentry/node program, run as a child process by the tests.
// argv: DSN, count, mode ("plain" | "gzip"), environment (default "staging"), handler ("lookup").
// Prints one JSON line: the event ids the SDK sent.
import * as Sentry from "@sentry/node";

const [dsn, countArg, mode, environment = "staging", handler = "lookup"] = process.argv.slice(2);
const count = Number(countArg);
Sentry.init({ dsn, release: "sdk-test@1.0.0", environment, sendClientReports: true, autoSessionTracking: false, defaultIntegrations: false });

// Different functions are different code paths: each groups into its own issue.
const handlers = {
  lookup: function failingLookup(id) {
    throw new TypeError(`Cannot find order ${id}`);
  },
  search: function searchHandler(id) {
    throw new TypeError(`Cannot find order ${id}`);
  },
};

const ids = [];
for (let i = 0; i < count; i++) {
  try {
    handlers[handler](1000 + i);
  } catch (error) {
    // Over 32 KiB the SDK gzips the body: the large payload exercises that path.
    const extra = mode === "gzip" ? { cart: Array.from({ length: 600 }, (_, n) => ({ sku: `SKU-${n}-${"x".repeat(60)}`, qty: n })) } : {};
    ids.push(Sentry.captureException(error, { extra, tags: { attempt: String(i) }, user: { id: `user-${i % 3}` } }));
  }
  // One envelope at a time, so rate limiting applies between them as it would in a real app.
  await Sentry.flush(5000);
}
await Sentry.close(5000);
process.stdout.write(`${JSON.stringify({ ids })}\n`);
