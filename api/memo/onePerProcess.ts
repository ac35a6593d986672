/**
 * The value `create` makes the first time `name` is asked for in this process, kept on globalThis:
 * Ponder reloads the API module on change, and a second store or Redis client must not be opened
 * (two PGlite instances on one directory would corrupt it).
 */
export function onePerProcess<T>(name: string, create: () => T): T {
  const holder = globalThis as { __svcSingletons?: Map<string, unknown> };
  holder.__svcSingletons ??= new Map();
  const registry = holder.__svcSingletons;
  if (!registry.has(name)) registry.set(name, create());
  return registry.get(name) as T;
}
