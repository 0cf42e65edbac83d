/**
 * What the model-provider stand-ins share: a JSON request body, a node:http server on 127.0.0.1
 * only, and the optional timing hook a benchmark uses to subtract the stand-in's own time.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface StandInOptions {
  /**
   * Called when a reply has been written, with `performance.now()` at the request's arrival and
   * at the reply's end: a benchmark subtracts the time spent here from the server's answer time.
   */
  onServed?: (served: { startedAt: number; endedAt: number }) => void;
  /** Keep every request and its headers (tests read them); a long benchmark turns this off so memory stays flat. */
  keepRequests?: boolean;
}

export async function readJson<T>(req: IncomingMessage): Promise<T> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as T;
}

/** Listens on an ephemeral loopback port; answers the origin (`http://127.0.0.1:<port>`) and a close that drops open streams. */
export async function listenOnLoopback(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>, { onServed }: StandInOptions = {}) {
  const server = createServer(async (req, res) => {
    const startedAt = performance.now();
    if (onServed) res.on("finish", () => onServed({ startedAt, endedAt: performance.now() }));
    await handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
