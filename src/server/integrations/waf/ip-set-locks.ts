/**
 * Serializes writes to one IP set inside this process: a read-modify-write of an IP set is
 * GetIPSet → change the list → UpdateIPSet with the lock token, so two writers starting together
 * would both read the same version and one would lose. Queued here, they follow each other;
 * writers in other replicas (or the AWS console) are caught by the lock token and retried.
 */
export interface IpSetLocks {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

export function createIpSetLocks(): IpSetLocks {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(key, work) {
      const previous = tails.get(key) ?? Promise.resolve();
      const next = previous.then(work, work);
      const tail = next.catch(() => undefined);
      tails.set(key, tail);
      // Forget the key once nothing waits on it, so the map does not grow with every IP set ever written.
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return next;
    },
  };
}
