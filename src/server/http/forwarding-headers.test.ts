import { describe, expect, it } from "vitest";
import { forwardedClientAddresses, forwardingHeaderNames } from "./forwarding-headers";

describe("forwarding headers", () => {
  it("finds every header a proxy forwards with, and no other", () => {
    const headers = {
      host: "localhost",
      "x-forwarded-for": "a",
      "x-forwarded-host": "b",
      forwarded: "for=c",
      "x-real-ip": "d",
      via: "1.1 e",
      "cf-connecting-ip": "f",
      "user-agent": "g",
      cookie: "h",
    };
    expect(forwardingHeaderNames(headers).sort()).toEqual(["cf-connecting-ip", "forwarded", "via", "x-forwarded-for", "x-forwarded-host", "x-real-ip"]);
    expect(forwardingHeaderNames({ host: "localhost", accept: "*/*" })).toEqual([]);
  });

  it("reads the client addresses of Forwarded and the single-address headers, bare", () => {
    expect(
      forwardedClientAddresses({
        forwarded: 'for=192.0.2.60;proto=http;by=203.0.113.43, For="[2001:db8:cafe::17]:4711", for=198.51.100.1:8080, for=unknown',
        "x-real-ip": " 127.0.0.1 ",
        "true-client-ip": "[::1]",
        "x-forwarded-for": "ignored here",
      }),
    ).toEqual(["192.0.2.60", "2001:db8:cafe::17", "198.51.100.1", "unknown", "127.0.0.1", "::1"]);
  });
});
