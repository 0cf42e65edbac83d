import { AsyncLocalStorage } from "node:async_hooks";

/**
 * An AsyncLocalStorage that is enabled only while one of its `run`s is in progress.
 *
 * On Node 20 an enabled AsyncLocalStorage installs promise hooks that every promise in the
 * process then pays for — ingest, the API and the chat's AI SDK streams alike — for as long as the
 * storage stays enabled, which for a plain AsyncLocalStorage is forever after its first `run`.
 * better-auth keeps its request state in three of them, so one sign-in slowed the whole process
 * down for good (the AI SDK's answer loop alone: +30 % CPU, bench:chat). This one disables itself
 * when its last run settles; a `run` that returns a promise counts until the promise settles.
 * Outside a run `getStore()` answers undefined, as it would for a plain one.
 */
export class ScopedAsyncLocalStorage<T> {
  readonly #storage = new AsyncLocalStorage<T>();
  #running = 0;

  getStore(): T | undefined {
    return this.#storage.getStore();
  }

  run<R, Args extends unknown[]>(store: T, callback: (...args: Args) => R, ...args: Args): R {
    this.#running += 1;
    let result: R;
    try {
      result = this.#storage.run(store, callback, ...args);
    } catch (error) {
      this.#leave();
      throw error;
    }
    if (result instanceof Promise) return result.finally(() => this.#leave()) as R;
    this.#leave();
    return result;
  }

  /** True while a run is in progress (and the promise hooks are installed). */
  get active() {
    return this.#running > 0;
  }

  #leave() {
    this.#running -= 1;
    if (this.#running === 0) this.#storage.disable();
  }
}

/** Where better-auth (1.x, `@better-auth/core/context`) keeps its storages, shared by every copy of it in the process. */
const BETTER_AUTH_GLOBAL = Symbol.for("better-auth:global");
const BETTER_AUTH_STORAGES = ["endpointContextAsyncStorage", "requestStateAsyncStorage", "adapterAsyncStorage"] as const;

/**
 * Hands better-auth scoped storages before its first request. It creates its own only where none
 * is set; should a later version move them, its own take over again (slower, still correct).
 */
export function installScopedAuthStorages(): ScopedAsyncLocalStorage<unknown>[] {
  const holder = globalThis as unknown as Record<symbol, { version: string; epoch: number; context?: Record<string, unknown> } | undefined>;
  // The shape better-auth creates on first use; it stamps its own version on it then.
  holder[BETTER_AUTH_GLOBAL] ??= { version: "", epoch: 1, context: {} };
  const context = (holder[BETTER_AUTH_GLOBAL].context ??= {});
  return BETTER_AUTH_STORAGES.map((name) => {
    const existing = context[name];
    if (existing instanceof ScopedAsyncLocalStorage) return existing;
    const scoped = new ScopedAsyncLocalStorage<unknown>();
    context[name] = scoped;
    return scoped;
  });
}
