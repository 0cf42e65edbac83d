import { describe, expect, it } from "vitest";
import { canonicalCidr, parseIpOrCidr } from "./ip-address";

describe("IP address and CIDR parsing", () => {
  it("turns a bare address into /32 or /128 and keeps a given prefix", () => {
    expect(parseIpOrCidr("203.0.113.7")).toEqual({ family: 4, address: "203.0.113.7", prefix: 32, cidr: "203.0.113.7/32" });
    expect(parseIpOrCidr("198.51.100.0/24")?.cidr).toBe("198.51.100.0/24");
    expect(parseIpOrCidr("2001:DB8::1")).toEqual({ family: 6, address: "2001:db8::1", prefix: 128, cidr: "2001:db8::1/128" });
    expect(parseIpOrCidr("2001:db8::/48")?.cidr).toBe("2001:db8::/48");
  });

  it("canonicalises IPv6 per RFC 5952 so equal addresses compare equal", () => {
    expect(canonicalCidr("2001:0db8:0000:0000:0000:0000:0000:0001/128")).toBe("2001:db8::1/128");
    expect(canonicalCidr("2001:db8:0:0:1:0:0:1")).toBe("2001:db8::1:0:0:1/128");
    expect(canonicalCidr("0:0:0:0:0:0:0:1")).toBe("::1/128");
    expect(canonicalCidr("::")).toBe("::/128");
    expect(canonicalCidr("::ffff:192.0.2.1")).toBe("::ffff:c000:201/128");
    expect(canonicalCidr("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2:3:4:5:6/128");
  });

  it("refuses what is not an address", () => {
    for (const text of [
      "",
      "256.1.1.1",
      "1.2.3",
      "1.2.3.4/33",
      "1.2.3.4/",
      "1.2.3.4/8/8",
      "2001:db8::1::2",
      "2001:db8::/129",
      "gggg::1",
      "1:2:3:4:5:6:7:8:9",
      "example.com",
      " 1.2.3.4 x",
    ]) {
      expect(parseIpOrCidr(text), text).toBeNull();
    }
  });
});
