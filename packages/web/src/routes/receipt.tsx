import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ReceiptCheck } from '@/components/public/receipt-page';

export const Route = createFileRoute('/receipt')({
  // `?code=` pre-fills the box (the voter's receipts page links here per code).
  validateSearch: z.object({ code: z.string().max(64).optional().catch(undefined) }),
  component: ReceiptCheck,
});
