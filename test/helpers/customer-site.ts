import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface CustomerSite {
  /** The site's origin, e.g. http://127.0.0.1:PORT. */
  url: string;
  close(): Promise<void>;
}

/**
 * A customer's web page on its own loopback origin, for real browser SDKs in Chromium: `/` sets
 * `window.FAULTLINE_DSN` and loads the one built script, served from `scriptFile` at `scriptPath`.
 */
export async function startCustomerSite(dsn: string, script: { scriptPath: string; scriptFile: string }): Promise<CustomerSite> {
  const site = createServer(async (req, res) => {
    if (req.url === script.scriptPath) {
      res.writeHead(200, { "content-type": "text/javascript" }).end(await readFile(script.scriptFile));
      return;
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<!doctype html><script>window.FAULTLINE_DSN = ${JSON.stringify(dsn)};</script><script src="${script.scriptPath}"></script>`);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => site.close(() => resolve())),
  };
}
