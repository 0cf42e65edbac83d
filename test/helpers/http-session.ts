/**
 * A tiny browser stand-in for API tests: keeps cookies like a browser would, sends our Origin
 * on writes, and speaks tRPC's HTTP wire format (superjson-encoded) for query/mutation calls.
 */
import superjson from "superjson";

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export class HttpSession {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    private readonly origin: string | null = baseUrl,
  ) {}

  cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async request<T = any>(
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string>; redirect?: RequestRedirect } = {},
  ): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    if (init.body !== undefined) headers["content-type"] ??= "application/json";
    const method = init.method ?? (init.body !== undefined ? "POST" : "GET");
    if (this.origin && method !== "GET" && !("origin" in headers)) headers.origin = this.origin;
    const response = await fetch(new URL(path, this.baseUrl), {
      method,
      headers,
      body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
      redirect: init.redirect ?? "manual",
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = /max-age=0/i.test(cookie) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON (HTML pages, redirects): keep the text
    }
    return { status: response.status, headers: response.headers, body: body as T, text };
  }

  /** Calls a tRPC query; returns the decoded data or the error shape. */
  async query<T = any>(path: string, input?: unknown) {
    const search = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}`;
    return this.decode<T>(await this.request(`/api/trpc/${path}${search}`));
  }

  async mutation<T = any>(path: string, input?: unknown, headers?: Record<string, string>) {
    return this.decode<T>(await this.request(`/api/trpc/${path}`, { method: "POST", body: superjson.serialize(input ?? null), headers }));
  }

  private decode<T>(response: HttpResponse<any>): {
    status: number;
    data?: T;
    error?: { message: string; code: string; httpStatus: number; appCode?: string; details?: Record<string, unknown> };
  } {
    const body = response.body;
    if (body?.result) return { status: response.status, data: superjson.deserialize(body.result.data) as T };
    const error = body?.error?.json ?? body?.error;
    return {
      status: response.status,
      error: {
        message: error?.message,
        code: error?.data?.code ?? error?.code,
        httpStatus: error?.data?.httpStatus ?? response.status,
        appCode: error?.data?.appCode,
        details: error?.data?.details,
      },
    };
  }
}
