import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { IngestError } from "../http/ingest-error";
import { decodeLegacyStoreBody } from "./legacy-store-body";

const JSON_BODY = Buffer.from('{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","message":"hi"}');
const LIMITS = { maxDecompressedBytes: 1024 * 1024 };

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof IngestError ? e.code : "not-an-ingest-error";
  }
  return undefined;
}

describe("decodeLegacyStoreBody", () => {
  it("returns plain JSON bodies unchanged", () => {
    expect(decodeLegacyStoreBody(JSON_BODY, LIMITS)).toBe(JSON_BODY);
    const padded = Buffer.concat([Buffer.from("\n  "), JSON_BODY]);
    expect(decodeLegacyStoreBody(padded, LIMITS)).toBe(padded);
  });

  it("decodes base64 JSON (old raven clients)", () => {
    expect(decodeLegacyStoreBody(Buffer.from(JSON_BODY.toString("base64")), LIMITS)).toEqual(JSON_BODY);
  });

  it("decodes base64 of zlib JSON (old raven clients)", () => {
    const body = Buffer.from(zlib.deflateSync(JSON_BODY).toString("base64"));
    expect(decodeLegacyStoreBody(body, LIMITS)).toEqual(JSON_BODY);
  });

  it("caps inflation of base64+zlib bombs", () => {
    const bomb = Buffer.from(zlib.deflateSync(Buffer.alloc(8 * 1024 * 1024)).toString("base64"));
    expect(codeOf(() => decodeLegacyStoreBody(bomb, LIMITS))).toBe("too_large");
  });

  it.each([
    ["empty", ""],
    ["not base64", "<html>"],
    ["base64 of garbage", Buffer.from("hello world").toString("base64")],
    ["base64 of broken zlib", Buffer.concat([Buffer.from([0x78, 0x9c]), Buffer.from("garbage")]).toString("base64")],
  ])("rejects %s as malformed", (_name, text) => {
    expect(codeOf(() => decodeLegacyStoreBody(Buffer.from(text), LIMITS))).toBe("malformed");
  });
});
