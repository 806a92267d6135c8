import { useState } from 'react';
import { cn } from '@/lib/utils';
import { useT } from '@/i18n';

export const DEFAULT_PHOTO = '/default-avatar.svg';

/** A round candidate photo; the default image stands in when there is none or it fails to load. */
export function CandidatePhoto({ src, name, className }: { src: string | null | undefined; name: string; className?: string }) {
  const { t } = useT();
  const [failed, setFailed] = useState<string | null>(null);
  const usable = src && failed !== src ? src : DEFAULT_PHOTO;
  return (
    <img
      src={usable}
      alt={name ? t('admin.photo.of', { name }) : t('admin.photo.none')}
      onError={() => src && setFailed(src)}
      className={cn('size-10 shrink-0 rounded-full border border-border bg-muted object-cover', className)}
    />
  );
}
