/**
 * Stripe's request bodies are form-encoded with bracketed keys (`line_items[0][price]=…`,
 * `subscription_data[metadata][organizationId]=…`); this turns them back into nested objects
 * (numeric keys become arrays) the way Stripe's API reads them.
 */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((part) => part !== "");
    let node: Record<string, unknown> = root;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        node[part] = value;
        return;
      }
      const next = parts[index + 1];
      node[part] ??= /^\d+$/.test(next) ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return root;
}
