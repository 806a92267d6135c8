import type { ReactNode } from 'react';
import { PublicLayout } from '@/components/layout/public-layout';

export function DocumentPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PublicLayout wide>
      <article className="prose mx-auto grid max-w-3xl gap-4 leading-relaxed [&_h2]:mt-4 [&_h2]:text-xl [&_h2]:font-semibold [&_ul]:list-disc [&_ul]:pl-6">
        <h1 className="text-3xl font-bold">{title}</h1>
        {children}
      </article>
    </PublicLayout>
  );
}
