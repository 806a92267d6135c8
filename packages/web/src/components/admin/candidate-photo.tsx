import { useState } from 'react';
import { cn } from '@/lib/utils';

export const DEFAULT_PHOTO = '/default-avatar.svg';

/** A round candidate photo; the default image stands in when there is none or it fails to load. */
export function CandidatePhoto({ src, name, className }: { src: string | null | undefined; name: string; className?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const usable = src && failed !== src ? src : DEFAULT_PHOTO;
  return (
    <img
      src={usable}
      alt={name ? `Photo of ${name}` : 'Candidate photo'}
      onError={() => src && setFailed(src)}
      className={cn('size-10 shrink-0 rounded-full border border-border bg-muted object-cover', className)}
    />
  );
}
