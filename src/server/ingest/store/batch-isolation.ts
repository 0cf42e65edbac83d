/** One part of a batch, committed or not. */
export type SettledPart<T, R> =
  | { items: T[]; ok: true; result: R }
  /** `isolated`: this single item fails alone; otherwise the database was unavailable for the part. */
  | { items: T[]; ok: false; error: unknown; isolated: boolean };

export interface IsolationOptions<T> {
  /** Whether a failure was caused by the data (split and retry) rather than an outage (give up). */
  isolable(error: unknown): boolean;
  /** Items of one group (a tenant's project) are kept together when the batch is split. */
  groupOf?: (item: T) => string;
}

/**
 * Commits `items` as one statement; when that fails because of the data it carried, splits the part
 * in halves and commits each, until every item is either committed or fails alone. One tenant's
 * unstorable event then costs the other tenants of its batch nothing but a few more statements.
 *
 * Bounded: the parts form a binary tree over the batch, so at most 2n − 1 statements for n items
 * whatever fails, and about 2·log2(n) more per failing item when few fail. Grouping the batch by
 * tenant before splitting keeps one tenant's bad events together, so the other tenants' events are
 * cleared in a few large parts. An outage (`isolable` false) stops the splitting at once: the
 * remaining parts fail with it, unsent.
 */
export async function commitIsolating<T, R>(items: T[], commit: (part: T[]) => Promise<R>, options: IsolationOptions<T>): Promise<SettledPart<T, R>[]> {
  const settled: SettledPart<T, R>[] = [];
  const pending: T[][] = items.length > 0 ? [items] : [];
  let outage: { error: unknown } | null = null;
  let grouped = options.groupOf === undefined;
  while (pending.length > 0) {
    let part = pending.pop()!;
    if (outage) {
      settled.push({ items: part, ok: false, error: outage.error, isolated: false });
      continue;
    }
    try {
      settled.push({ items: part, ok: true, result: await commit(part) });
    } catch (error) {
      if (!options.isolable(error)) {
        outage = { error };
        settled.push({ items: part, ok: false, error, isolated: false });
      } else if (part.length === 1) {
        settled.push({ items: part, ok: false, error, isolated: true });
      } else {
        if (!grouped) {
          // Only the first split pays for the sort (stable: arrival order within a group stays).
          const groupOf = options.groupOf!;
          part = [...part].sort((a, b) => (groupOf(a) < groupOf(b) ? -1 : groupOf(a) > groupOf(b) ? 1 : 0));
          grouped = true;
        }
        const middle = Math.ceil(part.length / 2);
        // The first half is committed first (a stack: pushed last).
        pending.push(part.slice(middle), part.slice(0, middle));
      }
    }
  }
  return settled;
}
