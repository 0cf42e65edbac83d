import net from "node:net";

export interface LoadResult {
  acked: string[];
  errors: number;
  /** Non-200 answers by status (0: the connection failed). */
  errorStatuses: Record<number, number>;
  p50: number;
  p99: number;
}

export interface LoadRequest {
  eventId: string;
  body: string;
}

const HEADER_END = Buffer.from("\r\n\r\n");
/** The last chunk of a chunked body, with the CRLF that ends the chunk before it. */
const LAST_CHUNK = Buffer.from("\r\n0\r\n\r\n");

/**
 * One keep-alive HTTP/1.1 connection on a raw socket: writes a request, reads exactly one
 * response (status line, then a Content-Length or chunked body). The load generator shares the machine's two
 * cores with the server and the database, so it must cost as little as `wrk` does: node's http
 * client spends several times more CPU per request than this.
 */
class RawConnection {
  private socket: net.Socket | null = null;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: ((status: number) => void) | null = null;

  constructor(private readonly url: URL) {}

  request(head: string, body: string): Promise<number> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      const socket = this.socket ?? this.connect();
      socket.write(head + body);
    });
  }

  close() {
    this.socket?.destroy();
  }

  private connect() {
    const socket = net.connect(Number(this.url.port), this.url.hostname);
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.tryComplete();
    });
    const fail = () => {
      this.socket = null;
      this.buffered = Buffer.alloc(0);
      this.finish(0);
    };
    socket.on("error", fail);
    socket.on("close", fail);
    this.socket = socket;
    return socket;
  }

  private tryComplete() {
    const headerEnd = this.buffered.indexOf(HEADER_END);
    if (headerEnd === -1) return;
    const head = this.buffered.toString("latin1", 0, headerEnd);
    let total: number;
    if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      // Small answers: the body ends at the zero-length chunk (searching from the header's CRLF
      // also finds an empty body's lone "0\r\n\r\n").
      const last = this.buffered.indexOf(LAST_CHUNK, headerEnd + 2);
      if (last === -1) return;
      total = last + LAST_CHUNK.length;
    } else {
      total = headerEnd + HEADER_END.length + Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      if (this.buffered.length < total) return;
    }
    this.buffered = this.buffered.subarray(total);
    if (/\r\nconnection:\s*close/i.test(head)) {
      this.socket?.removeAllListeners().destroy();
      this.socket = null;
      this.buffered = Buffer.alloc(0);
    }
    this.finish(Number(head.slice(9, 12)));
  }

  private finish(status: number) {
    const resolve = this.waiting;
    this.waiting = null;
    resolve?.(status);
  }
}

/**
 * Drives `connections` keep-alive connections for `seconds`, each sending the next request as
 * soon as the previous one is answered. Acknowledged = answered 200.
 */
export async function driveLoad(url: string, connections: number, seconds: number, next: () => LoadRequest): Promise<LoadResult> {
  const target = new URL(url);
  const pathAndQuery = `${target.pathname}${target.search}`;
  const headPrefix = `POST ${pathAndQuery} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/x-sentry-envelope\r\nContent-Length: `;
  const latencies: number[] = [];
  const acked: string[] = [];
  let errors = 0;
  const errorStatuses: Record<number, number> = {};
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const connection = new RawConnection(target);
      while (performance.now() < deadline) {
        const { eventId, body } = next();
        const started = performance.now();
        const status = await connection.request(`${headPrefix}${Buffer.byteLength(body)}\r\n\r\n`, body);
        if (status === 200) {
          latencies.push(performance.now() - started);
          acked.push(eventId);
        } else {
          errors += 1;
          errorStatuses[status] = (errorStatuses[status] ?? 0) + 1;
        }
      }
      connection.close();
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { acked, errors, errorStatuses, p50: pct(0.5), p99: pct(0.99) };
}
