import { useEffect, useState } from 'react';
import { CheckCircle2 } from 'lucide-react';
import { SUCCESS_ALERT_MS } from '@/lib/time';

/** A success alert that closes after 1.5 s (docs/screens.md "Messages and timings"). */
export function SuccessAlert({ message }: { message: string | null }) {
  /** The message whose time is up. */
  const [expired, setExpired] = useState<string | null>(null);
  useEffect(() => {
    if (!message) return;
    const t = setTimeout(() => setExpired(message), SUCCESS_ALERT_MS);
    return () => clearTimeout(t);
  }, [message]);
  const shown = message && message !== expired ? message : null;
  if (!shown) return null;
  return (
    <div role="status" className="flex items-center gap-2 rounded-md border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900">
      <CheckCircle2 className="size-4" aria-hidden="true" />
      {shown}
    </div>
  );
}
