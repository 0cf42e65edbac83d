/**
 * Express tries routes in the order they were registered, so a path with a parameter registered
 * first would take the URLs of a more specific static path (`/issues/:issueId` taking
 * `/issues/merge`). Routes are therefore registered in this order, whatever order the domains
 * declare them in: segment by segment, a static segment before a parameter, static segments
 * alphabetically, a shorter path before its extensions; routes of the same shape keep their
 * declared order.
 */
export function bySpecificity(a: { path: string }, b: { path: string }): number {
  const left = a.path.split("/");
  const right = b.path.split("/");
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const leftParam = isParameter(left[i]);
    const rightParam = isParameter(right[i]);
    if (leftParam !== rightParam) return leftParam ? 1 : -1;
    if (!leftParam && left[i] !== right[i]) return left[i] < right[i] ? -1 : 1;
  }
  return left.length - right.length;
}

const isParameter = (segment: string) => segment.startsWith(":") || segment.startsWith("*") || segment.startsWith("{");

/** The routes in the order Express must try them (a stable sort: the declared order breaks ties). */
export const inMatchOrder = <R extends { path: string }>(routes: readonly R[]): R[] => [...routes].sort(bySpecificity);
