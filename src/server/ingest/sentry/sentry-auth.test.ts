import { describe, expect, it } from "vitest";
import { loadCaptures } from "../../../../test/helpers/sdk-fixtures";
import { replayThroughPipeline } from "../../../../test/helpers/sdk-pipeline";
import { formatDsn, parseDsn, parseProjectNumber } from "./dsn";
import { IngestError } from "../http/ingest-error";
import { extractNativeApiKey } from "../native/native-auth";
import { extractSentryAuth, parseSentryAuthHeader, type SentryAuthInput } from "./sentry-auth";

const KEY = "e2e0f1c7e0ee0000000000000000000a";
const OTHER = "ffffffffffffffffffffffffffffffff";
const DSN = `http://${KEY}@127.0.0.1:9131/42`;

function failure(input: SentryAuthInput): { code: string; status: number } | null {
  try {
    extractSentryAuth(input);
    return null;
  } catch (e) {
    if (!(e instanceof IngestError)) throw e;
    return { code: e.code, status: e.status };
  }
}

describe("parseDsn", () => {
  it("reads key, host and project number", () => {
    expect(parseDsn(DSN)).toEqual({ protocol: "http", publicKey: KEY, secretKey: null, host: "127.0.0.1:9131", pathPrefix: "", projectNumber: 42 });
    expect(parseDsn(`https://${KEY}:secret@sentry.example.com/prefix/7`)).toMatchObject({ secretKey: "secret", pathPrefix: "/prefix", projectNumber: 7 });
  });

  it.each(["", "not a url", `ftp://${KEY}@h/1`, "https://h/1", `https://${KEY}@h/abc`, `https://${KEY}@h/0`, `https://${KEY}@h/`])("rejects %j", (dsn) => {
    expect(parseDsn(dsn)).toBeNull();
  });

  it("round-trips formatDsn", () => {
    const dsn = formatDsn({ baseUrl: "https://errors.example.com/", publicKey: KEY, projectNumber: 42 });
    expect(dsn).toBe(`https://${KEY}@errors.example.com/42`);
    expect(parseDsn(dsn)).toMatchObject({ publicKey: KEY, projectNumber: 42 });
  });

  it("accepts only positive integer project numbers", () => {
    expect(parseProjectNumber("42")).toBe(42);
    expect(parseProjectNumber(42)).toBe(42);
    for (const bad of ["0", "-1", "4.2", "042", "1e3", "abc", "", "99999999999999999", 0, 1.5, null]) {
      expect(parseProjectNumber(bad)).toBeNull();
    }
  });
});

describe("parseSentryAuthHeader", () => {
  it("parses the Python SDK header", () => {
    expect(parseSentryAuthHeader(`Sentry sentry_key=${KEY}, sentry_version=7, sentry_client=sentry.python/1.9.10`)).toEqual({
      sentry_key: KEY,
      sentry_version: "7",
      sentry_client: "sentry.python/1.9.10",
    });
  });

  it("ignores other schemes", () => {
    expect(parseSentryAuthHeader("Bearer abc")).toBeNull();
  });
});

describe("extractSentryAuth", () => {
  it("finds the key in each real SDK capture (query for node, X-Sentry-Auth for python)", async () => {
    for (const capture of [...loadCaptures("node"), ...loadCaptures("python")]) {
      const { auth } = await replayThroughPipeline(capture);
      expect(auth.publicKey).toBe(KEY);
      expect(auth.sources).toEqual([capture.folder === "node" ? "query" : "x-sentry-auth"]);
    }
  });

  it("accepts each source alone", () => {
    expect(extractSentryAuth({ query: { sentry_key: KEY, sentry_client: "x/1" } })).toEqual({ publicKey: KEY, sources: ["query"], client: "x/1" });
    expect(extractSentryAuth({ headers: { authorization: `Sentry sentry_key=${KEY}` } }).sources).toEqual(["authorization"]);
    expect(extractSentryAuth({ headers: { authorization: `DSN ${DSN}` } }).publicKey).toBe(KEY);
    expect(extractSentryAuth({ envelopeDsn: DSN, urlProjectNumber: 42 }).sources).toEqual(["envelope-dsn"]);
  });

  it("accepts several sources that agree", () => {
    const auth = extractSentryAuth({
      query: new URLSearchParams({ sentry_key: KEY }),
      headers: { "x-sentry-auth": `Sentry sentry_key=${KEY}`, authorization: `Sentry sentry_key=${KEY}` },
      envelopeDsn: DSN,
      urlProjectNumber: 42,
    });
    expect(auth.sources).toEqual(["query", "x-sentry-auth", "authorization", "envelope-dsn"]);
  });

  it.each<[string, SentryAuthInput]>([
    ["query vs header", { query: { sentry_key: KEY }, headers: { "x-sentry-auth": `Sentry sentry_key=${OTHER}` } }],
    ["header vs envelope dsn", { headers: { "x-sentry-auth": `Sentry sentry_key=${KEY}` }, envelopeDsn: `http://${OTHER}@h/42` }],
    [
      "two query keys",
      {
        query: new URLSearchParams([
          ["sentry_key", KEY],
          ["sentry_key", OTHER],
        ]),
      },
    ],
    ["authorization vs query", { query: { sentry_key: KEY }, headers: { authorization: `Sentry sentry_key=${OTHER}` } }],
    ["envelope dsn for another project", { envelopeDsn: `http://${KEY}@h/43`, urlProjectNumber: 42 }],
  ])("rejects disagreeing sources (%s) with auth_conflict 401", (_name, input) => {
    expect(failure(input)).toEqual({ code: "auth_conflict", status: 401 });
  });

  it("answers auth_missing 403 when there is no key at all (cookies are ignored)", () => {
    expect(failure({ query: {}, headers: { cookie: `sentry_key=${KEY}`, authorization: "Bearer x" } })).toEqual({ code: "auth_missing", status: 403 });
  });

  it.each<[string, SentryAuthInput]>([
    ["X-Sentry-Auth without key", { headers: { "x-sentry-auth": "Sentry sentry_version=7" } }],
    ["unparseable envelope dsn", { envelopeDsn: "nonsense" }],
    ["key with odd characters", { query: { sentry_key: "../../etc/passwd" } }],
  ])("rejects %s with auth_invalid", (_name, input) => {
    expect(failure(input)?.code).toBe("auth_invalid");
  });
});

describe("extractNativeApiKey", () => {
  it("reads x-api-key", () => {
    expect(extractNativeApiKey({ "x-api-key": ` ${KEY} ` })).toBe(KEY);
  });

  it.each([{}, { "x-api-key": "" }, { "x-api-key": "a b" }, { "x-api-key": [KEY, OTHER] }])("rejects %j with 401", (headers) => {
    let error: unknown;
    try {
      extractNativeApiKey(headers);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ status: 401 });
  });
});
