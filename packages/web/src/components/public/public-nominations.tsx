import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Election } from '@kura/contract';
import { queries } from '@/lib/queries';
import { useT } from '@/i18n';

/**
 * An election's published nominations on the public Elections page (docs/api.md "Nominations"):
 * after its nominations window closed, the valid and invalid ones with their supporters' names.
 * Nothing before the window closes, nor for an election that takes no nominations.
 */
export function PublicNominations({ election }: { election: Election }) {
  const { t } = useT();
  const [now] = useState(() => Date.now());
  const published = Boolean(election.id && election.nominations && Date.parse(election.nominations.closes_at) <= now);
  const q = useQuery({ ...queries.publicNominations(election.id ?? 0), enabled: published });
  if (!published || !q.data) return null;
  const list = q.data.body.data;
  if (list.length === 0) return null;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer font-medium">{t('nominations.public')}</summary>
      <ul className="mt-2 grid gap-2">
        {list.map((n) => (
          <li key={`${n.position_id}-${n.nominee.member_no}`}>
            <p>
              {t('nominations.publicLine', {
                name: n.nominee.name,
                position: n.position,
                status: t(`nominations.status.${n.status}`),
              })}
            </p>
            <p className="text-muted-foreground">
              {n.supporters
                .map((s) => t('nominations.publicSupporter', { role: t(`nominations.role.${s.role}`), name: s.name }))
                .join('; ')}
            </p>
          </li>
        ))}
      </ul>
    </details>
  );
}
