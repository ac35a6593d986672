import { describe, expect, test } from "vitest";
import { clientAddressKey } from "../../api/access/clientAddressKey";

describe("clientAddressKey (edge cases)", () => {
  test("IPv6 addresses whose leading groups are zero are keyed by their /64, not taken for IPv4-mapped ones", () => {
    expect(clientAddressKey("::1")).toBe("0:0:0:0::/64");
    expect(clientAddressKey("::0.0.0.1")).toBe("0:0:0:0::/64"); // IPv4-compatible (deprecated), not mapped
    expect(clientAddressKey("2001:db8::ffff:198.51.100.7")).toBe("2001:db8:0:0::/64");
    expect(clientAddressKey("0:0:0:1:0:ffff:c633:6407")).toBe("0:0:0:1::/64");
  });

  test("an IPv4-mapped address however written is its IPv4 address, every digit of it", () => {
    expect(clientAddressKey("0:0:0:0:0:ffff:198.51.100.77")).toBe("198.51.100.77");
    expect(clientAddressKey("::ffff:203.0.113.254")).toBe("203.0.113.254");
    expect(clientAddressKey("[::ffff:198.51.100.77]:8080")).toBe("198.51.100.77");
    expect(clientAddressKey("0:0::ffff:198.51.100.77")).toBe("198.51.100.77");
  });

  test("`::` stands for exactly the groups missing on either side of it", () => {
    expect(clientAddressKey("2001::2:3:4:5:6:7")).toBe("2001:0:2:3::/64");
    expect(clientAddressKey("2001:db8:1::5:6:7:8")).toBe("2001:db8:1:0::/64");
  });

  test("a bracketed IPv6 address without a port is unwrapped", () => {
    expect(clientAddressKey("[2001:db8:1:2::1]")).toBe("2001:db8:1:2::/64");
  });

  test("text that only contains an address is not an address: it is its own key, unchanged", () => {
    for (const text of ["junk[2001:db8:1:2::1]", "[2001:db8:1:2::1]:443junk", "x198.51.100.7:80", "198.51.100.7:80x", "unknown"]) {
      expect(clientAddressKey(text), text).toBe(text);
    }
  });
});
