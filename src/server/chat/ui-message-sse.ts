import type { ServerResponse } from "node:http";
import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from "ai";

const KEEP_ALIVE_COMMENT = ": keep-alive\n\n";

/**
 * Writes an AI SDK UI message stream to the response in the AI SDK's SSE format (`data: <chunk
 * JSON>` per chunk, then `data: [DONE]`), and reads the stream to its end even after the client
 * went away, so that the answer's onFinish still saves it. One reader loop: the AI SDK's own
 * pipe (JSON to SSE, keep-alive, a tee for the second reader, a text encoder) costs four more web
 * streams per answer, a measurable share of an answer's CPU on Node 20 (bench:chat).
 * A comment line every `keepAliveMs` keeps proxies from closing a stream while a tool runs.
 */
export async function writeUiMessageStream(res: ServerResponse, stream: ReadableStream<UIMessageChunk>, keepAliveMs: number) {
  res.writeHead(200, UI_MESSAGE_STREAM_HEADERS);
  const open = () => !res.destroyed && !res.writableEnded;
  const keepAlive = setInterval(() => open() && res.write(KEEP_ALIVE_COMMENT), keepAliveMs);
  keepAlive.unref();
  const reader = stream.getReader();
  // The chunks of one burst (a tool call's start, input and output) leave in one write.
  const uncork = () => res.uncork();
  const write = (text: string) => {
    if (!res.writableCorked) {
      res.cork();
      process.nextTick(uncork);
    }
    return res.write(text);
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (open() && !write(`data: ${JSON.stringify(value)}\n\n`)) await drainedOrClosed(res);
    }
    if (open()) res.end("data: [DONE]\n\n");
  } finally {
    clearInterval(keepAlive);
    reader.releaseLock();
  }
}

function drainedOrClosed(res: ServerResponse) {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}
