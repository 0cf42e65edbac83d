/** A health percentage as the screens show it: "99.67 %", or a dash without sessions (never "100 %"). */
export function percentText(value: number | null): string {
  return value === null ? "—" : `${value.toFixed(2)} %`;
}
