// A real @sentry/node program for the scrubbing tests, run as a child process.
// argv: DSN, then a JSON list of events { message, extra, user, request }; each is sent as a
// captureMessage with that scope (the request through an event processor, as an HTTP integration
// would add it). Prints one JSON line: the event ids the SDK sent.
import * as Sentry from "@sentry/node";

const [dsn, eventsJson] = process.argv.slice(2);
Sentry.init({ dsn, release: "scrub-test@1.0.0", environment: "production", sendClientReports: false, defaultIntegrations: false });

const ids = [];
for (const event of JSON.parse(eventsJson)) {
  Sentry.withScope((scope) => {
    scope.setExtras(event.extra ?? {});
    if (event.user) scope.setUser(event.user);
    if (event.request) scope.addEventProcessor((sent) => ({ ...sent, request: event.request }));
    ids.push(Sentry.captureMessage(event.message, "error"));
  });
  await Sentry.flush(5000);
}
await Sentry.close(5000);
process.stdout.write(`${JSON.stringify({ ids })}\n`);
