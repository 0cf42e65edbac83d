/**
 * A local stand-in for Anthropic's Messages API: `POST /v1/messages` with the `x-api-key` and
 * `anthropic-version` headers checked. A streamed request is answered as SSE events —
 * `message_start`, `ping`, per content block `content_block_start` (text or tool_use),
 * `content_block_delta` (`text_delta`, or `input_json_delta` with the tool input split over
 * several chunks, as the API sends it) and `content_block_stop`, then `message_delta` with the
 * stop reason and output usage, and `message_stop`; a non-streamed one gets one `message` JSON.
 * Errors use the API's `{ "type": "error", "error": { type, message } }` body. Listens on
 * 127.0.0.1 only. Tests script each reply from the request the real provider package sent.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { listenOnLoopback, readJson, type StandInOptions } from "./loopback-json-server";

export type AnthropicReply =
  | { text: string }
  | { toolCalls: { name: string; args: unknown }[] }
  /** An error answered before any byte of the stream (e.g. 529 overloaded_error). */
  | { status: number; errorType: string; message: string };

export interface AnthropicContentBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

export interface MessagesRequest {
  model: string;
  max_tokens: number;
  stream?: boolean;
  system?: string | { type: string; text: string }[];
  messages: { role: "user" | "assistant"; content: string | AnthropicContentBlock[] }[];
  tools?: { name: string; description?: string; input_schema: unknown }[];
}

export const ANTHROPIC_STAND_IN_USAGE = { input_tokens: 456, output_tokens: 21 };
export const ANTHROPIC_VERSION = "2023-06-01";

function sendError(res: ServerResponse, status: number, errorType: string, message: string) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: errorType, message } }));
}

let nextId = 0;
const messageId = () => `msg_standin_${++nextId}`;
const toolUseId = () => `toolu_standin_${++nextId}`;

function streamReply(res: ServerResponse, request: MessagesRequest, reply: { text: string } | { toolCalls: { name: string; args: unknown }[] }) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (data: { type: string } & Record<string, unknown>) => res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
  send({
    type: "message_start",
    message: {
      id: messageId(),
      type: "message",
      role: "assistant",
      model: request.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: ANTHROPIC_STAND_IN_USAGE.input_tokens, output_tokens: 1 },
    },
  });
  send({ type: "ping" });
  if ("text" in reply) {
    send({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    for (const word of reply.text.split(/(?<= )/)) send({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: word } });
    send({ type: "content_block_stop", index: 0 });
  } else {
    reply.toolCalls.forEach((call, index) => {
      send({ type: "content_block_start", index, content_block: { type: "tool_use", id: toolUseId(), name: call.name, input: {} } });
      const input = JSON.stringify(call.args);
      const half = Math.ceil(input.length / 2);
      // The API starts every tool input with an empty partial; the provider must join the rest.
      for (const partial of ["", input.slice(0, half), input.slice(half)])
        send({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: partial } });
      send({ type: "content_block_stop", index });
    });
  }
  send({
    type: "message_delta",
    delta: { stop_reason: "text" in reply ? "end_turn" : "tool_use", stop_sequence: null },
    usage: { output_tokens: ANTHROPIC_STAND_IN_USAGE.output_tokens },
  });
  send({ type: "message_stop" });
  res.end();
}

function completeReply(res: ServerResponse, request: MessagesRequest, reply: { text: string }) {
  res.writeHead(200, { "content-type": "application/json" }).end(
    JSON.stringify({
      id: messageId(),
      type: "message",
      role: "assistant",
      model: request.model,
      content: [{ type: "text", text: reply.text }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: ANTHROPIC_STAND_IN_USAGE,
    }),
  );
}

export interface AnthropicStandIn {
  /** The base URL the provider package is given as ANTHROPIC_BASE_URL (…/v1). */
  baseUrl: string;
  /** Every request received with the right credentials, in order. */
  requests: MessagesRequest[];
  /** Headers of every request (to check the API key and version are sent). */
  headers: IncomingMessage["headers"][];
  reply: (request: MessagesRequest) => AnthropicReply;
  close(): Promise<void>;
}

/** `apiKey` is the only key accepted: anything else answers 401 authentication_error, as the API does. */
export async function startAnthropicStandIn(apiKey: string, reply: AnthropicStandIn["reply"], options: StandInOptions = {}): Promise<AnthropicStandIn> {
  const keepRequests = options.keepRequests ?? true;
  const standIn = { requests: [], headers: [], reply } as unknown as AnthropicStandIn;
  const server = await listenOnLoopback(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/v1/messages") return sendError(res, 404, "not_found_error", "Not found");
    if (req.headers["x-api-key"] !== apiKey) return sendError(res, 401, "authentication_error", "invalid x-api-key");
    if (req.headers["anthropic-version"] !== ANTHROPIC_VERSION)
      return sendError(res, 400, "invalid_request_error", `anthropic-version header must be ${ANTHROPIC_VERSION}`);
    const request = await readJson<MessagesRequest>(req);
    if (keepRequests) {
      standIn.requests.push(request);
      standIn.headers.push(req.headers);
    }
    if (typeof request.model !== "string" || typeof request.max_tokens !== "number" || !Array.isArray(request.messages))
      return sendError(res, 400, "invalid_request_error", "model, max_tokens and messages are required");
    const answer = standIn.reply(request);
    if ("status" in answer) sendError(res, answer.status, answer.errorType, answer.message);
    else if (request.stream) streamReply(res, request, answer);
    else if ("text" in answer) completeReply(res, request, answer);
    else sendError(res, 400, "invalid_request_error", "the stand-in answers tool calls only when streamed");
  }, options);
  standIn.baseUrl = `${server.origin}/v1`;
  standIn.close = server.close;
  return standIn;
}
