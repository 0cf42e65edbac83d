/**
 * A local stand-in for an OpenAI-compatible model server (Ollama, vLLM, LM Studio, llama.cpp
 * server): `POST /v1/chat/completions`, streamed as SSE `chat.completion.chunk`s with
 * `delta.content` and `delta.tool_calls` (arguments split over several chunks, as real servers
 * send them) and a final usage chunk; non-streamed requests get one `chat.completion`. Listens on
 * 127.0.0.1 only. Tests script each reply from the request the real provider package sent.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { listenOnLoopback, readJson, type StandInOptions } from "./loopback-json-server";

export type StandInReply =
  | { text: string }
  | { toolCalls: { name: string; args: unknown }[] }
  | { status: number; body: unknown }
  /** Bytes that are not the protocol, sent as the stream body. */
  | { garbage: string };

export interface ChatCompletionRequest {
  model: string;
  stream?: boolean;
  messages: { role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; description?: string; parameters: unknown } }[];
  stream_options?: { include_usage?: boolean };
}

export const STAND_IN_USAGE = { prompt_tokens: 321, completion_tokens: 12 };

function chunk(model: string, delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    id: "chatcmpl-standin",
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function streamReply(res: ServerResponse, request: ChatCompletionRequest, reply: { text: string } | { toolCalls: { name: string; args: unknown }[] }) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  send(chunk(request.model, { role: "assistant", content: "" }));
  if ("text" in reply) {
    for (const word of reply.text.split(/(?<= )/)) send(chunk(request.model, { content: word }));
    send(chunk(request.model, {}, "stop"));
  } else {
    reply.toolCalls.forEach((call, index) => {
      const args = JSON.stringify(call.args);
      const half = Math.ceil(args.length / 2);
      send(
        chunk(request.model, {
          tool_calls: [{ index, id: `call_${index}_${Date.now()}`, type: "function", function: { name: call.name, arguments: args.slice(0, half) } }],
        }),
      );
      send(chunk(request.model, { tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
    });
    send(chunk(request.model, {}, "tool_calls"));
  }
  if (request.stream_options?.include_usage)
    send({
      ...chunk(request.model, {}),
      choices: [],
      usage: { ...STAND_IN_USAGE, total_tokens: STAND_IN_USAGE.prompt_tokens + STAND_IN_USAGE.completion_tokens },
    });
  res.end("data: [DONE]\n\n");
}

function completeReply(res: ServerResponse, request: ChatCompletionRequest, reply: { text: string }) {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id: "chatcmpl-standin",
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      choices: [{ index: 0, message: { role: "assistant", content: reply.text }, finish_reason: "stop" }],
      usage: { ...STAND_IN_USAGE, total_tokens: STAND_IN_USAGE.prompt_tokens + STAND_IN_USAGE.completion_tokens },
    }),
  );
}

export interface OpenAiCompatibleStandIn {
  /** The base URL the provider package is given (…/v1). */
  baseUrl: string;
  /** Every request received, in order. */
  requests: ChatCompletionRequest[];
  /** Headers of every request (to check the API key is sent). */
  headers: IncomingMessage["headers"][];
  reply: (request: ChatCompletionRequest) => StandInReply;
  close(): Promise<void>;
}

export async function startOpenAiCompatibleStandIn(reply: OpenAiCompatibleStandIn["reply"], options: StandInOptions = {}): Promise<OpenAiCompatibleStandIn> {
  const keepRequests = options.keepRequests ?? true;
  const standIn = { requests: [], headers: [], reply } as unknown as OpenAiCompatibleStandIn;
  const server = await listenOnLoopback(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found", type: "invalid_request_error" } }));
      return;
    }
    const request = await readJson<ChatCompletionRequest>(req);
    if (keepRequests) {
      standIn.requests.push(request);
      standIn.headers.push(req.headers);
    }
    const answer = standIn.reply(request);
    if ("status" in answer) res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
    else if ("garbage" in answer) res.writeHead(200, { "content-type": "text/event-stream" }).end(answer.garbage);
    else if (request.stream) streamReply(res, request, answer);
    else if ("text" in answer) completeReply(res, request, answer);
    else res.writeHead(400).end();
  }, options);
  standIn.baseUrl = `${server.origin}/v1`;
  standIn.close = server.close;
  return standIn;
}
