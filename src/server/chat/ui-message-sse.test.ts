import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { UIMessageChunk } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { writeUiMessageStream } from "./ui-message-sse";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A loopback server answering every request with `chunks`, one every `gapMs`; `read` counts what the stream gave up. */
async function serve(chunks: UIMessageChunk[], gapMs: number, keepAliveMs: number) {
  const progress = { read: 0, ended: false };
  server = createServer((_req, res) => {
    const stream = new ReadableStream<UIMessageChunk>({
      async pull(controller) {
        if (progress.read === chunks.length) {
          progress.ended = true;
          controller.close();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, gapMs));
        controller.enqueue(chunks[progress.read++]);
      },
    });
    void writeUiMessageStream(res, stream, keepAliveMs);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`, progress };
}

const chunks: UIMessageChunk[] = [{ type: "start" }, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Hi" }, { type: "finish" }];

describe("writeUiMessageStream", () => {
  it("writes the AI SDK's SSE format with its headers, keep-alive comments while waiting, and [DONE]", async () => {
    const { url } = await serve(chunks, 40, 15);
    const response = await fetch(url);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const body = await response.text();
    const data = body.split("\n\n").filter((event) => event.startsWith("data: "));
    expect(data.map((event) => event.slice(6))).toEqual([...chunks.map((chunk) => JSON.stringify(chunk)), "[DONE]"]);
    expect(body).toContain(": keep-alive\n\n");
  });

  it("reads the stream to its end after the client went away", async () => {
    const { url, progress } = await serve(chunks, 30, 1_000);
    const abort = new AbortController();
    const response = await fetch(url, { signal: abort.signal });
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();
    await expect.poll(() => progress.ended, { timeout: 2_000 }).toBe(true);
    expect(progress.read).toBe(chunks.length);
  });
});
