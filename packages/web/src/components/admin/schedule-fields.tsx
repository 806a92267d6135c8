import { useState } from 'react';
import { z } from 'zod';
import { RESULTS_VISIBILITY, ResultsVisibility, type Election } from '@kura/contract';
import { FieldError, FormField } from '@/components/forms';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { fromZonedInput, knownTimeZones, timeZoneLabel, toZonedInput } from '@/lib/zoned-time';
import { useT, type MessageKey } from '@/i18n';

/** One sentence per mode, as the back office shows it (SECURITY.md "Results visibility"). */
export const VISIBILITY_KEY: Record<ResultsVisibility, MessageKey> = {
  live: 'admin.schedule.live',
  staff: 'admin.schedule.staff',
  after_close: 'admin.schedule.afterClose',
};

/**
 * The schedule's fields in a form's schema: the opening and closing times as wall-clock times in
 * the organisation's zone ('' for none; the form turns them into instants with `fromZonedInput`)
 * and the results visibility by the contract's rule.
 */
export const scheduleShape = {
  opens_at: z.string(),
  closes_at: z.string(),
  results_visibility: ResultsVisibility,
};
export type ScheduleValues = { opens_at: string; closes_at: string; results_visibility: ResultsVisibility };
type ScheduleKey = keyof ScheduleValues | 'time_zone';

/** An election's schedule as the fields hold it: its times on the wall clock of `zone`. */
export function scheduleValues(e: Election, zone: string): ScheduleValues {
  return {
    opens_at: toZonedInput(e.opens_at, zone),
    closes_at: toZonedInput(e.closes_at, zone),
    results_visibility: e.results_visibility,
  };
}

type Props = {
  /** Prefix of the field ids (the form's useId). */
  id: string;
  /**
   * The form's values (react-hook-form's `watch()`). With `time_zone` among them the zone is a
   * field here, saved with the schedule (the admin dashboard); without, the times are read in the
   * organisation's zone, which the hint names (the election form).
   */
  values: ScheduleValues & { time_zone?: string };
  /** The form's field messages (components/forms.tsx `fieldMessages`). */
  errors: Partial<Record<string, string>>;
  /** Sets one field (react-hook-form's `setValue`). */
  onChange: (key: ScheduleKey, value: string) => void;
  /** The zone the times are read in. */
  zone: string;
};

/**
 * The one schedule editor (docs/screens.md): when voting opens and closes on the organisation's
 * clock, the zone named with its offset on polling day, and who sees results while voting runs,
 * each with its field message. The admin dashboard's schedule card and the election form (New,
 * Edit) use it.
 */
export function ScheduleFields({ id, values, errors, onChange, zone }: Props) {
  const { t, tRich } = useT();
  const [zones] = useState(knownTimeZones);
  const [today] = useState(() => Date.now());
  // The offset that applies on polling day (daylight saving may differ from today's).
  const zoneLabel = timeZoneLabel(zone, new Date(fromZonedInput(values.opens_at, zone) ?? today));
  const zoneField = values.time_zone !== undefined;

  const times = (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField id={`${id}-opens`} label={t('admin.schedule.opens')} error={errors.opens_at}>
        <Input type="datetime-local" step={1} value={values.opens_at} onChange={(e) => onChange('opens_at', e.target.value)} />
      </FormField>
      <FormField id={`${id}-closes`} label={t('admin.schedule.closes')} error={errors.closes_at}>
        <Input type="datetime-local" step={1} value={values.closes_at} onChange={(e) => onChange('closes_at', e.target.value)} />
      </FormField>
    </div>
  );

  return (
    <>
      {zoneField ? (
        <>
          <FormField
            id={`${id}-zone`}
            label={t('admin.schedule.zone')}
            description={tRich('admin.schedule.zoneHint', { zone: zoneLabel, strong: (chunks) => <strong>{chunks}</strong> })}
            error={errors.time_zone}
          >
            <Input
              list={`${id}-zones`}
              autoComplete="off"
              className="sm:max-w-sm"
              value={values.time_zone}
              onChange={(e) => onChange('time_zone', e.target.value)}
            />
          </FormField>
          <datalist id={`${id}-zones`}>
            {zones.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          {times}
        </>
      ) : (
        <fieldset className="grid gap-2" aria-describedby={`${id}-schedule-hint`}>
          <legend className="text-sm font-medium">{t('elections.field.schedule')}</legend>
          <p className="text-sm text-muted-foreground" id={`${id}-schedule-hint`}>
            {t('elections.field.scheduleHint', { zone: zoneLabel })}
          </p>
          {times}
        </fieldset>
      )}
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">{t('admin.schedule.visibility')}</legend>
        <RadioGroup
          value={values.results_visibility}
          onValueChange={(v) => onChange('results_visibility', v)}
          aria-describedby={errors.results_visibility ? `${id}-visibility-error` : undefined}
          className="grid gap-3"
        >
          {RESULTS_VISIBILITY.map((mode) => (
            <span key={mode} className="flex items-start gap-2">
              <RadioGroupItem id={`${id}-${mode}`} value={mode} className="mt-0.5" />
              <Label htmlFor={`${id}-${mode}`} className="font-normal leading-snug">
                {t(VISIBILITY_KEY[mode])}
              </Label>
            </span>
          ))}
        </RadioGroup>
        <FieldError id={`${id}-visibility-error`} message={errors.results_visibility} />
      </fieldset>
    </>
  );
}
