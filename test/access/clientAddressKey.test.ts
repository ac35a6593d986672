import { describe, expect, test } from "vitest";
import { clientAddressKey } from "../../api/access/clientAddressKey";

describe("clientAddressKey", () => {
  test("default: an IPv4 address is its own key", () => {
    expect(clientAddressKey("198.51.100.7")).toBe("198.51.100.7");
    expect(clientAddressKey(" 198.51.100.7:8080 ")).toBe("198.51.100.7");
  });

  test("behavior: an IPv6 address is keyed by its /64, however it is written", () => {
    const key = "2001:db8:1:2::/64";
    for (const address of [
      "2001:db8:1:2::1",
      "2001:DB8:1:2:ffff::9",
      "2001:0db8:0001:0002:0:0:0:1",
      "[2001:db8:1:2::5]:443",
      "2001:db8:1:2::1%eth0",
    ]) {
      expect(clientAddressKey(address), address).toBe(key);
    }
    expect(clientAddressKey("2001:db8:1:3::1")).not.toBe(key);
    expect(clientAddressKey("2001:db8:1::2:0:0:1")).toBe("2001:db8:1:0::/64");
  });

  test("behavior: an IPv4-mapped IPv6 address is its IPv4 address", () => {
    expect(clientAddressKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(clientAddressKey("::FFFF:c633:6407")).toBe("198.51.100.7");
    expect(clientAddressKey("0:0:0:0:0:ffff:198.51.100.7")).toBe("198.51.100.7");
  });

  test("behavior: anything that is no IP address is kept as it is", () => {
    expect(clientAddressKey("unknown")).toBe("unknown");
  });

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
