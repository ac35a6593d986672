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
});
