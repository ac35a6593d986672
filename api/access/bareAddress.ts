/** `[2001:db8::1]:443` → `2001:db8::1`, `198.51.100.7:80` → `198.51.100.7`, `fe80::1%eth0` → `fe80::1`; spaces around it dropped. */
export function bareAddress(address: string): string {
  const trimmed = address.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(trimmed);
  const host = bracketed?.[1] ?? /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(trimmed)?.[1] ?? trimmed;
  return host.split("%")[0] as string;
}
