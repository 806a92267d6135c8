import { useState } from 'react';
import { setupFailureReason } from '@/lib/mutations';

/**
 * A set-up section's last refusal (the server's 409/422 reason), shown above its list until the
 * next attempt; the mutation hook has already toasted it.
 */
export function useProblem() {
  const [text, setText] = useState<string | null>(null);
  /** Runs one change; answers whether it succeeded. */
  const run = async (work: () => Promise<unknown>) => {
    setText(null);
    try {
      await work();
      return true;
    } catch (err) {
      setText(setupFailureReason(err));
      return false;
    }
  };
  return { text, run };
}

export function SectionProblem({ problem }: { problem: string | null }) {
  if (!problem) return null;
  return (
    <p role="alert" className="mb-2 text-sm text-destructive">
      {problem}
    </p>
  );
}
