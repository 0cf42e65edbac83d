// A real @sentry/node server with its default request sessions (httpServerIntegration's `sessions`,
// one session per incoming request, sent as `sessions` aggregates), run as a child process.
// argv: DSN, release, ok, errored, crashed — how many requests of each kind it serves itself:
// ok answers 200; errored captures a handled error and answers 200; crashed throws in the handler,
// which Sentry's Express error handler reports as unhandled (the request session crashes).
// Prints one JSON line: what it served, by kind, as the responses said.
import * as Sentry from "@sentry/node";

const [dsn, release, okArg, erroredArg, crashedArg] = process.argv.slice(2);
Sentry.init({ dsn, release, environment: "production", sendClientReports: false });
const { default: express } = await import("express");

const app = express();
// A signed-in user on every request: request sessions are aggregates, which carry no user (`did`) all the same.
app.use((_req, _res, next) => {
  Sentry.setUser({ id: "customer-7" });
  next();
});
app.get("/ok", (_req, res) => res.send("ok"));
app.get("/errored", (_req, res) => {
  Sentry.captureException(new Error("handled while serving"));
  res.send("handled");
});
app.get("/crashed", () => {
  throw new TypeError("unhandled in a request handler");
});
Sentry.setupExpressErrorHandler(app);
// Express's own final handler answers 500 after Sentry's has captured the error.

const server = await new Promise((resolve) => {
  const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
});
const base = `http://127.0.0.1:${server.address().port}`;
const served = { ok: 0, errored: 0, crashed: 0 };
const plan = [...Array(Number(okArg)).fill("ok"), ...Array(Number(erroredArg)).fill("errored"), ...Array(Number(crashedArg)).fill("crashed")];
for (const kind of plan) {
  const response = await fetch(`${base}/${kind}`, { headers: { connection: "close" } });
  await response.text();
  const expected = kind === "crashed" ? 500 : 200;
  if (response.status !== expected) throw new Error(`/${kind} answered ${response.status}`);
  served[kind] += 1;
}
await new Promise((resolve) => server.close(resolve));
// Request sessions end on the response's close; let the last ones be recorded before flushing.
await new Promise((resolve) => setTimeout(resolve, 100));
await Sentry.close(5000);
process.stdout.write(`${JSON.stringify(served)}\n`);
