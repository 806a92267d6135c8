import { useId, useRef, useState } from 'react';
import { LifeBuoy } from 'lucide-react';
import { MAX_ISSUE_IMAGES } from '@kura/contract';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { api } from '@/lib/api';
import { errorMessage } from '@/lib/errors';

/** The issue dialog and its report toasts (docs/screens.md "Messages and timings"). */
export function IssueDialog({ triggerLabel = 'Report an Issue or Help' }: { triggerLabel?: string }) {
  const [open, setOpen] = useState(false);
  const [details, setDetails] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const detailsId = useId();
  const fileId = useId();
  const report = api.help.reportIssue.useMutation();

  const reset = () => {
    setDetails('');
    setFieldError(null);
    if (fileRef.current) fileRef.current.value = '';
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!details.trim()) {
      setFieldError('The details field is required');
      return;
    }
    const files = Array.from(fileRef.current?.files ?? []);
    if (files.length > MAX_ISSUE_IMAGES) {
      setFieldError(`Attach at most ${MAX_ISSUE_IMAGES} images`);
      return;
    }
    const form = new FormData();
    form.append('details', details.trim());
    for (const f of files) form.append('images[]', f);
    try {
      await report.mutateAsync({ body: form });
      toast({
        variant: 'success',
        title: 'Issue reported successfully',
        description: 'Thank you for your feedback. We will look into it.',
      });
      reset();
      setOpen(false);
    } catch (err) {
      toast({
        variant: 'destructive',
        title: 'Error reporting issue',
        description: errorMessage(err) ?? 'Something went wrong. Please try again later.',
      });
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline">
          <LifeBuoy aria-hidden="true" />
          {triggerLabel}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Report an Issue or Help</DialogTitle>
            <DialogDescription>Describe the problem or what you need help with.</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={detailsId}>Description</Label>
            <Textarea
              id={detailsId}
              value={details}
              maxLength={5000}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? `${detailsId}-error` : undefined}
              onChange={(e) => {
                setDetails(e.target.value);
                if (fieldError) setFieldError(null);
              }}
            />
            {fieldError && (
              <p id={`${detailsId}-error`} className="text-sm text-destructive" role="alert">
                {fieldError}
              </p>
            )}
          </div>
          <div className="grid gap-2">
            <Label htmlFor={fileId}>Attachment (optional)</Label>
            <input
              ref={fileRef}
              id={fileId}
              type="file"
              accept="image/jpeg,image/png,image/webp"
              multiple
              className="text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-background file:px-3 file:py-1.5"
            />
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={report.isPending}>
              {report.isPending ? 'Submitting…' : 'Submit'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
