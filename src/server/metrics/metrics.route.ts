import { Router } from "express";
import type { Logger } from "../logger";
import { PROMETHEUS_CONTENT_TYPE } from "./metric-registry";
import { metricsGuard } from "./metrics-guard";
import { processMetrics } from "./process-metrics";
import type { ScrapeMetrics } from "./scrape-metrics";

/** GET /metrics: the process-wide counters and histograms, then the gauges read at scrape time. */
export function metricsRoute(scrape: ScrapeMetrics, options: { token: string | undefined; trustedHops: number; logger: Logger }): Router {
  const router = Router();
  router.get("/metrics", metricsGuard(options.token, options.trustedHops), async (_req, res) => {
    try {
      const [counted, read] = await Promise.all([processMetrics.render(), scrape.render()]);
      res.setHeader("Content-Type", PROMETHEUS_CONTENT_TYPE);
      res.setHeader("Cache-Control", "no-store");
      res.send(counted + read);
    } catch (error) {
      options.logger.warn("metrics scrape failed", { err: error });
      res.status(500).type("text/plain").send("metrics scrape failed\n");
    }
  });
  return router;
}
