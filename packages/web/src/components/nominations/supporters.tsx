import type { Nomination } from '@kura/contract';
import { useT } from '@/i18n';

/** A nomination's supporters, each with their role and whether they confirmed (the voter's Nominate page and the admin's queue). */
export function Supporters({ nomination }: { nomination: Nomination }) {
  const { t } = useT();
  return (
    <ul className="text-sm text-muted-foreground">
      {nomination.supporters.map((s) => (
        <li key={s.member_no}>
          {t('nominations.supporterLine', {
            role: t(`nominations.role.${s.role}`),
            name: s.name,
            memberNo: s.member_no,
            state: s.confirmed ? t('nominations.confirmed') : t('nominations.pending'),
          })}
        </li>
      ))}
    </ul>
  );
}
