import { useQuery } from '@tanstack/react-query';
import { queries } from '@/lib/queries';
import { useT } from '@/i18n';

/** The one documented step that makes the first admin (README "Quick start", docs/operations.md). */
export const FIRST_ADMIN_COMMAND = 'pnpm cli admin:create you@example.org --name "Your Name"';
export const FIRST_ADMIN_DOCKER = 'docker compose exec server kura admin:create you@example.org';

/**
 * While the installation has no admin (GET staff/status), the first screens say how to create one:
 * the command on the server, or ADMIN_EMAIL and ADMIN_PASSWORD and a restart. Nothing otherwise.
 */
export function FirstAdminHint() {
  const { t } = useT();
  const status = useQuery(queries.staffStatus());
  if (status.data?.body.data.admin_exists !== false) return null;
  return (
    <section
      role="note"
      aria-labelledby="first-admin-heading"
      className="grid gap-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <h2 id="first-admin-heading" className="font-semibold">
        {t('firstAdmin.heading')}
      </h2>
      <p>{t('firstAdmin.text')}</p>
      <pre className="overflow-x-auto rounded bg-background px-2 py-1 text-xs text-foreground">
        <code>{FIRST_ADMIN_COMMAND}</code>
      </pre>
      <p>{t('firstAdmin.docker')}</p>
      <pre className="overflow-x-auto rounded bg-background px-2 py-1 text-xs text-foreground">
        <code>{FIRST_ADMIN_DOCKER}</code>
      </pre>
      <p>{t('firstAdmin.env')}</p>
    </section>
  );
}
