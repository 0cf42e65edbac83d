// A small Express shop whose checkout throws; Sentry's express error handler reports it with the
// request (and its client IP, from X-Forwarded-For as behind a proxy). Prints its port, then serves
// on loopback until SIGTERM, when it flushes the SDK's queue.
import * as Sentry from "@sentry/node";
import express from "express";

const app = express();
app.get("/checkout", function checkoutHandler() {
  throw new Error("Payment provider rejected the card");
});
Sentry.setupExpressErrorHandler(app);
app.use((_error, _req, res, _next) => {
  res.status(500).json({ error: "checkout failed" });
});

const server = app.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on("SIGTERM", async () => {
  await Sentry.flush(5000);
  server.close(() => process.exit(0));
});
