/**
 * Secrets at rest (AES-256-GCM). Battery: round trip (empty, unicode, long), a fresh IV per seal,
 * tamper detection on every part of the sealed value, binding to owner/purpose/field, rotation
 * (new key seals, old keys still open, a dropped key fails clearly), and SECRETS_KEY parsing.
 */
import { describe, expect, it } from "vitest";
import { generateSecretsKey, parseKeyring } from "./keyring";
import { createSecretBox, isSealed, SecretOpenError, type SecretContext } from "./secret-box";

const KEY_1 = "11".repeat(32);
const KEY_2 = "22".repeat(32);
const context: SecretContext = { owner: "user:42", purpose: "oauth-token", field: "accessToken" };

describe("secret box", () => {
  const box = createSecretBox(parseKeyring(KEY_1));

  it("opens what it sealed, and the sealed form hides the plaintext", () => {
    for (const plaintext of ["", "gho_16C7e42F292c6912E7710c838347Ae178B4a", "päss wörd ✓ 🔑", "x".repeat(100_000)]) {
      const sealed = box.seal(plaintext, context);
      expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]+$/);
      if (plaintext.length > 3) expect(sealed).not.toContain(plaintext);
      expect(isSealed(sealed)).toBe(true);
      expect(box.open(sealed, context)).toBe(plaintext);
    }
  });

  it("uses a fresh IV every time, so equal secrets do not look equal", () => {
    const a = box.seal("same", context);
    const b = box.seal("same", context);
    expect(a).not.toBe(b);
    expect(a.slice(3, 19)).not.toBe(b.slice(3, 19));
  });

  it("refuses a value altered anywhere: IV, tag, ciphertext, truncated or extended", () => {
    const sealed = box.seal("ya29.a0AfH6SMBx-secret", context);
    const bytes = Buffer.from(sealed.slice(3), "base64url");
    for (const at of [0, 11, 12, 27, 28, bytes.length - 1]) {
      const flipped = Buffer.from(bytes);
      flipped[at] = flipped[at]! ^ 0x01;
      expect(() => box.open(`v1:${flipped.toString("base64url")}`, context)).toThrow(SecretOpenError);
    }
    expect(() => box.open(`v1:${bytes.subarray(0, bytes.length - 1).toString("base64url")}`, context)).toThrow(SecretOpenError);
    expect(() => box.open(`v1:${Buffer.concat([bytes, Buffer.from([0])]).toString("base64url")}`, context)).toThrow(SecretOpenError);
    expect(() => box.open(`v1:${bytes.subarray(0, 20).toString("base64url")}`, context)).toThrow("too short");
  });

  it("binds the value to its owner, purpose and field", () => {
    const sealed = box.seal("refresh-me", context);
    expect(() => box.open(sealed, { ...context, owner: "user:43" })).toThrow(SecretOpenError);
    expect(() => box.open(sealed, { ...context, purpose: "webhook-signing" })).toThrow(SecretOpenError);
    expect(() => box.open(sealed, { ...context, field: "refreshToken" })).toThrow(SecretOpenError);
    // The parts are encoded unambiguously: moving a character across a boundary is another context.
    const split = box.seal("s", { owner: "a", purpose: "bc", field: "d" });
    expect(() => box.open(split, { owner: "ab", purpose: "c", field: "d" })).toThrow(SecretOpenError);
  });

  it("does not take plaintext for a sealed value", () => {
    for (const value of ["gho_plain-token", "v1:", "v1:abc", "v1:not base64!", "1:abcd"]) {
      expect(() => box.open(value, context)).toThrow(SecretOpenError);
    }
    expect(isSealed("gho_plain-token")).toBe(false);
    expect(isSealed("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln")).toBe(false);
  });

  it("rotates: the first key seals, older listed keys still open, a dropped key fails clearly", () => {
    const old = createSecretBox(parseKeyring(KEY_1)).seal("from-v1", context);
    const rotated = createSecretBox(parseKeyring(`2:${KEY_2}, 1:${KEY_1}`));
    expect(rotated.open(old, context)).toBe("from-v1");
    const fresh = rotated.seal("from-v2", context);
    expect(fresh.startsWith("v2:")).toBe(true);
    expect(rotated.open(fresh, context)).toBe("from-v2");

    const withoutV1 = createSecretBox(parseKeyring(`2:${KEY_2}`));
    expect(() => withoutV1.open(old, context)).toThrow("key version 1 is not in SECRETS_KEY");
    // Same version number, different key material: refused, not garbage.
    expect(() => createSecretBox(parseKeyring(`1:${KEY_2}`)).open(old, context)).toThrow(SecretOpenError);
  });
});

describe("SECRETS_KEY parsing", () => {
  it("accepts a bare key (version 1), versioned lists, and what generateSecretsKey writes", () => {
    expect(parseKeyring(KEY_1).current.version).toBe(1);
    const ring = parseKeyring(`3:${KEY_2},1:${KEY_1.toUpperCase()}`);
    expect(ring.current.version).toBe(3);
    expect([...ring.byVersion.keys()]).toEqual([3, 1]);
    const generated = generateSecretsKey();
    expect(generated).toMatch(/^1:[0-9a-f]{64}$/);
    expect(parseKeyring(generated).current.key).toHaveLength(32);
  });

  it("refuses short keys, duplicates, unversioned lists and version 0", () => {
    expect(() => parseKeyring("too-short")).toThrow(/64 hex characters/);
    expect(() => parseKeyring("ab".repeat(16))).toThrow(/64 hex characters/);
    expect(() => parseKeyring(" , ")).toThrow(/64 hex characters/);
    expect(() => parseKeyring(`1:${KEY_1},1:${KEY_2}`)).toThrow("version 1 is listed twice");
    expect(() => parseKeyring(`${KEY_1},${KEY_2}`)).toThrow(/each needs its <version>: prefix/);
    expect(() => parseKeyring(`0:${KEY_1}`)).toThrow(/start at 1/);
  });
});
