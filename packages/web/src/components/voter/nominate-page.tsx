import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { toast } from '@/hooks/use-toast';
import { queries } from '@/lib/queries';
import { t, useT } from '@/i18n';

/** Events/nominate (docs/screens.md "Screens"): voting items with a Vote button that only logs the chosen values. */
export function Nominate() {
  useT();
  const q = useQuery(queries.items());
  const [chosen, setChosen] = useState<number[]>([]);

  useEffect(() => {
    if (q.isError) toast({ variant: 'destructive', title: t('nominate.failedTitle'), description: t('nominate.failed') });
  }, [q.isError]);

  if (q.isPending) return <Loading label={t('nominate.loading')} />;
  if (q.isError) return <ErrorState>{t('nominate.failed')}</ErrorState>;
  const items = q.data.body.data;
  if (items.length === 0) return <EmptyState>{t('nominate.none')}</EmptyState>;

  return (
    <form
      className="grid max-w-2xl gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        console.log('Chosen items', chosen);
      }}
    >
      {items.map((item) => {
        const id = `item-${item.id}`;
        return (
          <Card key={item.id}>
            <CardHeader className="flex-row items-start gap-3">
              <Checkbox
                id={id}
                checked={chosen.includes(item.id)}
                onCheckedChange={(v) => setChosen((c) => (v === true ? [...c, item.id] : c.filter((x) => x !== item.id)))}
              />
              <div className="grid gap-1">
                <CardTitle>
                  <label htmlFor={id}>{item.title}</label>
                </CardTitle>
                <CardDescription>{item.description}</CardDescription>
              </div>
            </CardHeader>
          </Card>
        );
      })}
      <div>
        <Button type="submit">{t('ballot.vote')}</Button>
      </div>
    </form>
  );
}
