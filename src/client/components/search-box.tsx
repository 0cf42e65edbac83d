import { useEffect, useRef, useState } from "react";
import { SearchIcon } from "lucide-react";
import { Input } from "./ui/input";

/** How long typing must pause before the text is applied; Enter applies it at once. */
const SEARCH_DEBOUNCE_MS = 400;

interface Props {
  /** The applied text, from the URL. */
  value: string;
  /** Receives the trimmed text; not called when it equals `value`. */
  onSubmit: (text: string) => void;
  label: string;
  placeholder: string;
  testId: string;
}

/** A search field that applies its text after a pause in typing, or at once on Enter. */
export function SearchBox({ value, onSubmit, label, placeholder, testId }: Props) {
  const [text, setText] = useState(value);
  const timer = useRef<number | undefined>(undefined);
  const submitted = useRef(value);

  // The URL is the truth: clearing filters or going back replaces what was typed. The echo of our
  // own submission is skipped, so keys typed meanwhile are kept.
  useEffect(() => {
    if (value !== submitted.current) setText(value);
    submitted.current = value;
  }, [value]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const submit = (next: string) => {
    window.clearTimeout(timer.current);
    const trimmed = next.trim();
    if (trimmed === value) return;
    submitted.current = trimmed;
    onSubmit(trimmed);
  };

  return (
    <form
      role="search"
      className="relative min-w-56 flex-1"
      onSubmit={(event) => {
        event.preventDefault();
        submit(text);
      }}
    >
      <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <Input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        className="pl-8"
        value={text}
        maxLength={200}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          window.clearTimeout(timer.current);
          timer.current = window.setTimeout(() => submit(next), SEARCH_DEBOUNCE_MS);
        }}
        data-testid={testId}
      />
    </form>
  );
}
