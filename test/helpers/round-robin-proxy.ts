/**
 * The smallest load balancer: loopback only, each request to the next upstream in turn, method,
 * headers (cookies included) and body passed through, the answer streamed back with an
 * `x-upstream` header naming the upstream that served it (its index), so a test can tell where
 * a request landed.
 */
import { Agent, createServer, request, type IncomingHttpHeaders } from "node:http";

export const UPSTREAM_HEADER = "x-upstream";
/** Per-hop headers a proxy does not forward (RFC 9110 §7.6.1); node frames each side itself. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer"]);

export interface RoundRobinProxy {
  url: string;
  /** Set once the upstreams listen: the proxy's URL is needed before (their API_URL). */
  setUpstreams(urls: string[]): void;
  /** Requests served per upstream index so far. */
  served: number[];
  close(): Promise<void>;
}

function endToEnd(headers: IncomingHttpHeaders) {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

export async function startRoundRobinProxy(): Promise<RoundRobinProxy> {
  let upstreams: URL[] = [];
  let next = 0;
  const served: number[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const server = createServer((incoming, outgoing) => {
    if (upstreams.length === 0) {
      outgoing.writeHead(503).end("no upstream");
      return;
    }
    const index = next++ % upstreams.length;
    const upstream = upstreams[index]!;
    const forwarded = request(
      { agent, host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: endToEnd(incoming.headers) },
      (answer) => {
        served[index] = (served[index] ?? 0) + 1;
        outgoing.writeHead(answer.statusCode ?? 502, { ...endToEnd(answer.headers), [UPSTREAM_HEADER]: String(index) });
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { [UPSTREAM_HEADER]: String(index) });
      outgoing.end(`upstream ${index}: ${error.message}`);
    });
    incoming.pipe(forwarded);
  });
  // Many concurrent keep-alive clients: node's default of 5 s would close idle ones mid-run.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    setUpstreams: (urls) => {
      upstreams = urls.map((url) => new URL(url));
    },
    served,
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
