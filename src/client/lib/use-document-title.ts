import { useEffect } from "react";

/** Sets the tab title to "<title> · Faultline" while the screen is shown. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    const previous = document.title;
    document.title = `${title} · Faultline`;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
