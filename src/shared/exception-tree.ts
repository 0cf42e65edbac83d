import type { ExceptionValueView } from "./occurrence-view";

export interface TreeEntry {
  exception: ExceptionValueView;
  depth: number;
  /** Shown under "Caused by" (a plain chain's causes). */
  causedBy: boolean;
}

/**
 * The order and indentation the exception screen shows. A plain chain: the thrown exception (the
 * LAST stored entry) first, then each cause. An exception group (`is_exception_group`, children
 * naming it in `parent_id`): a tree, root first, each child indented under its parent, in the order
 * sent; entries whose parent is unknown are shown at the top level after it.
 */
export function exceptionTree(exceptions: ExceptionValueView[]): TreeEntry[] {
  if (!exceptions.some((exception) => exception.mechanism?.isExceptionGroup)) {
    return [...exceptions].reverse().map((exception, index) => ({ exception, depth: 0, causedBy: index > 0 }));
  }
  const ids = new Set(exceptions.map((exception) => exception.mechanism?.exceptionId).filter((id): id is number => id !== null && id !== undefined));
  const isRoot = (exception: ExceptionValueView) => {
    const parent = exception.mechanism?.parentId;
    return parent === null || parent === undefined || !ids.has(parent);
  };
  const entries: TreeEntry[] = [];
  const seen = new Set<ExceptionValueView>();
  const visit = (exception: ExceptionValueView, depth: number) => {
    // A cycle in SDK-sent ids must not loop.
    if (seen.has(exception)) return;
    seen.add(exception);
    entries.push({ exception, depth, causedBy: false });
    const id = exception.mechanism?.exceptionId;
    if (id === null || id === undefined) return;
    for (const child of exceptions) if (child !== exception && child.mechanism?.parentId === id) visit(child, depth + 1);
  };
  // Roots in id order (the group is 0), so the group heads the tree whatever the sent order.
  const roots = exceptions.filter(isRoot).sort((a, b) => (a.mechanism?.exceptionId ?? 0) - (b.mechanism?.exceptionId ?? 0));
  for (const root of roots) visit(root, 0);
  for (const exception of exceptions) if (!seen.has(exception)) visit(exception, 0);
  return entries;
}
