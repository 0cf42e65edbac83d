import type { IncomingMessage } from "node:http";
import express from "express";
import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-address";

const request = (peer: string, forwardedFor?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
    connection: { remoteAddress: peer },
  }) as unknown as IncomingMessage;

/** Express's own answer for the same request and hop count: the behaviour we must match. */
function expressIp(req: IncomingMessage, hops: number): string | undefined {
  const app = express();
  app.set("trust proxy", hops);
  const expressReq = Object.create(app.request, { app: { value: app } });
  Object.assign(expressReq, req);
  return expressReq.ip;
}

describe("clientAddress", () => {
  const cases: [string, string | undefined, number][] = [
    ["10.0.0.1", undefined, 0],
    ["10.0.0.1", "203.0.113.9", 0],
    ["10.0.0.1", "203.0.113.9", 1],
    ["10.0.0.1", "198.51.100.7, 203.0.113.9", 1],
    ["10.0.0.1", "198.51.100.7, 203.0.113.9", 2],
    ["10.0.0.1", "198.51.100.7, 203.0.113.9", 5],
    ["10.0.0.1", " 198.51.100.7 ,203.0.113.9 ", 2],
    ["::1", "2001:db8::1", 1],
  ];

  it.each(cases)("peer %s, X-Forwarded-For %s, %i trusted hops: as Express's req.ip", (peer, forwarded, hops) => {
    const req = request(peer, forwarded);
    expect(clientAddress(req, hops)).toBe(expressIp(req, hops));
  });

  it("believes no forwarded address without trusted hops (a client cannot spoof its IP)", () => {
    expect(clientAddress(request("10.0.0.1", "1.2.3.4"), 0)).toBe("10.0.0.1");
  });
});
