/** Product constants of spec §9, shared by client and server. */
export const DEPLOYMENT_MODE_SELF_HOSTED = "SELF_HOSTED";

export const ISSUES_PAGE_SIZE = 20;
export const EVENTS_PAGE_SIZE = 10;
export const ISSUE_EXCEPTIONS_PAGE_SIZE = 10;
export const ISSUE_DETAIL_PRELOAD_SIZE = 5;
export const ISSUES_STALE_TIME_MS = 30_000;

export const QUERY_GC_TIME_MS = 5 * 60_000;
export const QUERY_RETRIES = 3;
export const QUERY_RETRY_BASE_MS = 1_000;
export const QUERY_RETRY_MAX_MS = 30_000;
export const ROUTER_PRELOAD_DELAY_MS = 50;
export const ROUTER_PENDING_MS = 1_000;
export const ROUTER_PENDING_MIN_MS = 500;
export const ROUTER_PRELOAD_STALE_MS = 30_000;
export const SCROLL_RESTORATION_THROTTLE_MS = 100;

export const TOASTER = {
  visibleToasts: 3,
  duration: 4_000,
  width: 356,
  gap: 14,
  swipeThreshold: 45,
  removeDelay: 200,
  position: "bottom-right",
  hotkey: ["altKey", "KeyT"],
} as const;

export const THEME_STORAGE_KEY = "faultline-theme";
export const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];
