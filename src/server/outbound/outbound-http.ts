import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { classifyAddress } from "./address-classifier";
import type { OutboundAllowList } from "./outbound-allow";

/**
 * The messages of the errors below reach the tenant (the Send test answer, the notification log),
 * so they never name an address a host resolved to: that would tell anyone who can save a webhook
 * URL how this server resolves names and what answers inside its network. `detail` keeps the
 * specifics for the server log.
 */
export class OutboundRefusedError extends Error {
  readonly refused = true;
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** Sent (or tried) but failed: timeout, connection error, oversized answer, too many redirects. */
export class OutboundFailedError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** Refused before any byte was sent: the target (or a redirect's) is an address the policy forbids. */
export const TARGET_NOT_ALLOWED = "Refused: the target address is not allowed (a server operator can allow it with OUTBOUND_ALLOW)";

/** A socket error as the tenant may read it: its code, not its message (which names the address and port connected to). */
function connectionFailure(error: Error): OutboundFailedError {
  const code = (error as NodeJS.ErrnoException).code;
  return new OutboundFailedError(`Could not reach the receiver${code ? ` (${code})` : ""}`, error.message);
}

export interface OutboundRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The URL that answered, after redirects. */
  url: string;
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface OutboundHttpOptions {
  allow: OutboundAllowList;
  timeoutMs: number;
  maxResponseBytes: number;
  maxRedirects: number;
  /** Name resolution (tests substitute a resolver that changes its answer; production uses the system's). */
  resolve?: Resolver;
}

export interface OutboundHttp {
  request(request: OutboundRequest): Promise<OutboundResponse>;
}

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A checked target: the address we will connect to, and only that one. */
interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/**
 * SSRF-safe outbound HTTP (battery I). Every hop is checked before anything is sent: only http and
 * https; the host is resolved ONCE and every address it resolves to must be public (or allowed by
 * OUTBOUND_ALLOW); the connection goes to the checked address itself (a pinned lookup), so a DNS
 * answer that changes between check and connect cannot redirect it; redirects are followed by
 * hand and each new target is checked the same way. The whole exchange has a deadline, and the
 * answer is cut off at a size cap.
 */
export function createOutboundHttp(options: OutboundHttpOptions): OutboundHttp {
  const resolve = options.resolve ?? systemResolver;

  async function check(url: URL): Promise<CheckedTarget> {
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new OutboundRefusedError(`Refused: the scheme ${url.protocol} is not allowed (http and https only)`);
    if (url.username || url.password) throw new OutboundRefusedError("Refused: credentials in the URL are not allowed");
    // WHATWG URL parsing already turned decimal, octal and hex IPv4 spellings (2130706433, 0177.1, 0x7f.1) into dotted form.
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
    const literal = isIP(host);
    const addresses = literal ? [{ address: host, family: literal }] : await resolveOrFail(host);
    if (addresses.length === 0) throw new OutboundFailedError(`Could not resolve ${host}`);
    const targetAllowed = options.allow.allowsTarget(host, port);
    for (const { address } of addresses) {
      const verdict = classifyAddress(address);
      if (verdict.forbidden && !targetAllowed && !options.allow.allowsAddress(address))
        throw new OutboundRefusedError(TARGET_NOT_ALLOWED, `${host}:${port} resolves to ${address} (${verdict.forbidden})`);
    }
    const [first] = addresses;
    return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
  }

  async function resolveOrFail(host: string) {
    try {
      return await resolve(host);
    } catch (error) {
      throw new OutboundFailedError(`Could not resolve ${host}: ${(error as Error).message}`);
    }
  }

  function send(target: CheckedTarget, request: OutboundRequest, deadline: number): Promise<OutboundResponse> {
    return new Promise((resolvePromise, reject) => {
      // Whatever the socket asks for, it gets the address we checked.
      const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
        if ((lookupOptions as { all?: boolean }).all)
          (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
        else callback(null, target.address, target.family);
      };
      const transport = target.url.protocol === "https:" ? https : http;
      const remaining = Math.max(1, deadline - Date.now());
      const body = request.body === undefined ? undefined : Buffer.from(request.body);
      const req = transport.request(
        target.url,
        {
          method: request.method ?? "POST",
          headers: { "user-agent": "Faultline-Alerts/1", ...(request.headers ?? {}), ...(body ? { "content-length": String(body.length) } : {}) },
          lookup: pinned,
          agent: false,
          timeout: remaining,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > options.maxResponseBytes) {
              reject(new OutboundFailedError(`The answer exceeded ${options.maxResponseBytes} bytes`));
              res.destroy();
              req.destroy();
              return;
            }
            chunks.push(chunk);
          });
          res.on("end", () =>
            resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8"), url: target.url.toString() }),
          );
          res.on("error", (error) => reject(connectionFailure(error)));
        },
      );
      const timer = setTimeout(() => req.destroy(new OutboundFailedError(`Timed out after ${options.timeoutMs} ms`)), remaining);
      req.on("timeout", () => req.destroy(new OutboundFailedError(`Timed out after ${options.timeoutMs} ms`)));
      req.on("error", (error) => reject(error instanceof OutboundFailedError ? error : connectionFailure(error)));
      req.on("close", () => clearTimeout(timer));
      req.end(body);
    });
  }

  return {
    async request(request) {
      const deadline = Date.now() + options.timeoutMs;
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        throw new OutboundRefusedError("Refused: not a valid URL");
      }
      let current = request;
      for (let hop = 0; ; hop++) {
        const target = await check(url);
        const response = await send(target, current, deadline);
        const location = response.headers.location;
        if (![301, 302, 303, 307, 308].includes(response.status) || !location) return response;
        if (hop >= options.maxRedirects) throw new OutboundFailedError(`Too many redirects (more than ${options.maxRedirects})`);
        url = new URL(location, url);
        // 303 (and, by browser custom, 301/302 after a POST) continue as a GET without the body.
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && current.method !== "GET"))
          current = { url: url.toString(), method: "GET", headers: request.headers };
      }
    },
  };
}
