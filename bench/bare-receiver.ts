// The ceiling for bench:ingest: node:http plus the same decoding and envelope parsing as the real
// endpoint, answering 200 without storing anything.
import http from "node:http";
import { decodeBody } from "../src/server/ingest/http/body-decoder";
import { parseEnvelope } from "../src/server/ingest/sentry/envelope.parser";
import { DEFAULT_INGEST_LIMITS } from "../src/server/ingest/http/ingest-limits";

const port = Number(process.argv[2]);
http
  .createServer(async (req, res) => {
    try {
      const body = await decodeBody(req, req.headers["content-encoding"], DEFAULT_INGEST_LIMITS);
      const parsed = parseEnvelope(body, DEFAULT_INGEST_LIMITS);
      res.writeHead(parsed.ok ? 200 : 400, { "content-type": "application/json" });
      res.end(parsed.ok ? JSON.stringify({ id: parsed.envelope.header.eventId }) : "{}");
    } catch {
      res.writeHead(400).end();
    }
  })
  .listen(port, "127.0.0.1");
process.on("SIGTERM", () => process.exit(0));
