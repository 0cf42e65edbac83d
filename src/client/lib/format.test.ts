import { describe, expect, it } from "vitest";
import { formatBytes } from "./format";

describe("formatBytes", () => {
  it("counts bytes below a kilobyte, then units of 1,024 with one decimal below 10", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1024)).toBe("1 KB");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(20 * 1024 + 300)).toBe("20 KB");
    expect(formatBytes(64 * 1024 * 1024)).toBe("64 MB");
    expect(formatBytes(2.25 * 1024 ** 3)).toBe("2.3 GB");
    expect(formatBytes(3 * 1024 ** 4)).toBe("3 TB");
  });
});
