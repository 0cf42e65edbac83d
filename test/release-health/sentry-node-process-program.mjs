// A real @sentry/node program with its default process session (processSessionIntegration: one
// session per run, started by Sentry.init; the user set on the scope becomes its `did`). It ends
// normally (the session is sent `exited` on beforeExit) or by an uncaught exception
// (onUncaughtExceptionIntegration captures it unhandled: the session is sent `crashed`, then the
// process exits with code 1), run as a child process.
// argv: DSN, release, user id, "ok" | "crash".
// Prints one JSON line per session item the SDK put in an envelope, as sent.
import * as Sentry from "@sentry/node";

const [dsn, release, user, outcome] = process.argv.slice(2);
Sentry.init({ dsn, release, environment: "production", sendClientReports: false });
Sentry.getClient()?.on("beforeEnvelope", (envelope) => {
  for (const [header, payload] of envelope[1]) {
    // A write to a pipe is synchronous on Linux: the line is out before the crash exits the process.
    if (header.type === "session") process.stdout.write(`${JSON.stringify(payload)}\n`);
  }
});
Sentry.setUser({ id: user });

await new Promise((resolve) => setTimeout(resolve, 10));
if (outcome === "crash") {
  setTimeout(() => {
    throw new RangeError(`stock below zero for ${user}`);
  });
}
