import { useState, type ReactNode } from "react";
import { Loader2Icon } from "lucide-react";
import { Button } from "./ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "./ui/dialog";
import { Input } from "./ui/input";
import { Label } from "./ui/label";

interface Props {
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** Resolves when done; the dialog stays open (and usable) when it throws. */
  onConfirm: () => Promise<unknown>;
  destructive?: boolean;
  /** For irreversible deletions: the user must type this text first. */
  confirmText?: string;
  testId?: string;
  /** A choice the confirmation carries (e.g. the issue a merge keeps), between the description and the buttons. */
  children?: ReactNode;
}

export function ConfirmDialog({ trigger, title, description, confirmLabel, onConfirm, destructive = false, confirmText, testId, children }: Props) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [pending, setPending] = useState(false);
  const blocked = confirmText !== undefined && typed.trim() !== confirmText;

  const confirm = async () => {
    setPending(true);
    try {
      await onConfirm();
      setOpen(false);
    } catch {
      // The caller already reported the error (toast); keep the dialog for another try.
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setTyped("");
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent data-testid={testId}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription asChild>
            <div>{description}</div>
          </DialogDescription>
        </DialogHeader>
        {children}
        {confirmText !== undefined ? (
          <div className="grid gap-2">
            <Label htmlFor="confirm-dialog-text" className="font-normal">
              Type <strong className="font-semibold">{confirmText}</strong> to confirm.
            </Label>
            <Input id="confirm-dialog-text" data-testid="confirm-text" value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
          </div>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button variant={destructive ? "destructive" : "default"} disabled={blocked || pending} onClick={() => void confirm()} data-testid="confirm-submit">
            {pending ? <Loader2Icon className="animate-spin" /> : null}
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
