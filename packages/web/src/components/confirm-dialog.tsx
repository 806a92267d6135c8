import { useState, type ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/errors';
import { useT } from '@/i18n';

type ConfirmDialogProps = {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** Red for what cannot be undone (delete, remove); the default colour for what can (archive). */
  destructive?: boolean;
  pending: boolean;
  /** Runs the action; a rejection (the server's refusal) stays in the dialog, translated. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
};

/**
 * The app's one confirmation of a staff action (docs/architecture.md "How to add a screen"):
 * Cancel or the action; while the server refuses (a 409 with its reason), the dialog stays open
 * and says why; the reason is cleared each time the dialog opens again.
 */
export function ConfirmDialog({ open, title, description, confirmLabel, destructive, pending, onConfirm, onClose }: ConfirmDialogProps) {
  const { t, tReceived } = useT();
  const [problem, setProblem] = useState<string | null>(null);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    setProblem(null);
  }
  const confirm = async () => {
    setProblem(null);
    try {
      await onConfirm();
    } catch (err) {
      setProblem(errorMessage(err) ?? t('common.somethingWrong'));
    }
  };
  return (
    <AlertDialog open={open} onOpenChange={(o) => !o && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {problem && (
          <p role="alert" className="text-sm text-destructive">
            {tReceived(problem)}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel>{t('common.cancel')}</AlertDialogCancel>
          <Button variant={destructive ? 'destructive' : 'default'} disabled={pending} onClick={() => void confirm()}>
            {confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
