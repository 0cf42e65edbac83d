import { describe, expect, it } from "vitest";
import { parseLsn, replicaLagSeconds } from "./replica-lag";

describe("parseLsn", () => {
  it("orders positions by both halves", () => {
    expect(parseLsn("0/16B3748")).toBe(0x16b3748n);
    expect(parseLsn("1/0")).toBeGreaterThan(parseLsn("0/FFFFFFFF"));
    expect(parseLsn("16/B374D848")).toBe((0x16n << 32n) | 0xb374d848n);
  });

  it("refuses what is not a position", () => {
    expect(() => parseLsn("16B374D848")).toThrow("not a WAL position");
  });
});

describe("replicaLagSeconds", () => {
  const current = { primaryLsn: "0/3000060", inRecovery: true, replayedLsn: "0/3000060", secondsSinceLastReplay: 3600 };

  it("is 0 when the standby replayed up to the primary's position, however old its last transaction", () => {
    expect(replicaLagSeconds(current)).toBe(0);
    // Replay may pass the position read a moment before it.
    expect(replicaLagSeconds({ ...current, replayedLsn: "0/3000100" })).toBe(0);
  });

  it("is the age of the last replayed transaction when the standby is behind", () => {
    expect(replicaLagSeconds({ ...current, replayedLsn: "0/3000000", secondsSinceLastReplay: 12.5 })).toBe(12.5);
    expect(replicaLagSeconds({ ...current, replayedLsn: "0/3000000", secondsSinceLastReplay: -0.2 })).toBe(0);
  });

  it("cannot be told of a server that is not a standby, or one that replayed nothing yet", () => {
    expect(replicaLagSeconds({ ...current, inRecovery: false, replayedLsn: null })).toBeNull();
    expect(replicaLagSeconds({ ...current, replayedLsn: null })).toBeNull();
    expect(replicaLagSeconds({ ...current, replayedLsn: "0/3000000", secondsSinceLastReplay: null })).toBeNull();
  });
});
