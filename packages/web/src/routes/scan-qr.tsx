import { createFileRoute } from '@tanstack/react-router';
import { ScanQr } from '@/components/auth/scan-qr-page';

export const Route = createFileRoute('/scan-qr')({
  component: ScanQr,
});
