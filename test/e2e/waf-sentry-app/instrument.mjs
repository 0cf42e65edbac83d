// Loaded with `node --import` before the app, as @sentry/node asks, so its http and express
// instrumentation wraps the modules the app imports. sendDefaultPii attaches the client IP.
import * as Sentry from "@sentry/node";

Sentry.init({ dsn: process.env.SENTRY_DSN, environment: "production", release: "shop@1.0.0", sendDefaultPii: true, tracesSampleRate: 0 });
