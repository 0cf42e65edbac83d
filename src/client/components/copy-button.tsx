import { useState } from "react";
import { toast } from "@/client/lib/toast";
import { CheckIcon, CopyIcon } from "lucide-react";
import { Button } from "./ui/button";

/** Copies a value to the clipboard and confirms with a toast. */
export function CopyButton({ value, label, testId }: { value: string; label: string; testId?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success(`${label} copied to the clipboard`);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      // Clipboard access needs a secure context and permission; the value stays selectable.
      toast.error(`Could not copy the ${label}. Select it and copy it by hand.`);
    }
  };
  return (
    <Button variant="ghost" size="icon" className="size-7" onClick={() => void copy()} aria-label={`Copy ${label}`} data-testid={testId}>
      {copied ? <CheckIcon className="text-success" /> : <CopyIcon />}
    </Button>
  );
}
