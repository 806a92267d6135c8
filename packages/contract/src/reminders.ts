import { z } from 'zod';
import { c, errors, meta } from './common';
import { ElectionQuery, pathIdSchema } from './validation';
import { translationsSchema } from './languages';
import { said } from './messages';

export const ReminderChannel = z.enum(['sms', 'email'], { message: said('field.oneOf', { field: 'channel', options: ['sms', 'email'] }) });

export const CreateReminderBody = z.object({
  channel: ReminderChannel,
  /** `{name}` is replaced with each member's name. */
  message: z
    .string({
      required_error: said('field.isRequired', { field: 'message' }),
      invalid_type_error: said('field.mustBeText', { field: 'message' }),
    })
    .trim()
    .min(1, said('field.isRequired', { field: 'message' }))
    .max(1000, said('field.maxLength', { n: 1000 })),
  /** The message in other languages: language (en, sw) → {message}; a member whose language has one gets it, the others `message`. */
  translations: translationsSchema({ message: 1000 }).optional(),
  /** Only count the recipients; nothing is queued or sent. */
  dry_run: z.boolean({ invalid_type_error: said('field.trueOrFalse', { field: 'dry_run' }) }).optional(),
});
export type CreateReminderBody = z.infer<typeof CreateReminderBody>;

export const CreateReminderResponse = z.object({
  /** The campaign to follow with GET reminders/{id}; null for a dry run. */
  id: z.number().int().nullable(),
  /** Members who have not voted and were not reminded in the last hour. */
  recipients: z.number().int(),
});

export const Reminder = z.object({
  id: z.number().int(),
  channel: ReminderChannel,
  total: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  /** Recipients passed over at send time: they voted meanwhile, or another reminder reached them within the hour. */
  skipped: z.number().int(),
  status: z.enum(['queued', 'sending', 'done']),
});
export type Reminder = z.infer<typeof Reminder>;

export const ReminderParams = z.object({ id: pathIdSchema });

export const remindersRouter = c.router({
  createReminder: {
    method: 'POST',
    path: '/reminders',
    query: ElectionQuery,
    summary: "Remind the members of the election's roll who have not voted yet (SMS or email), sent in the background",
    description:
      "Answers 202 with the campaign id and the number of recipients: the members of the election's roll (frozen when voting first opened; before that, its electorate now) who have not voted in it. `dry_run` only counts them (id null). A member reminded in the last hour is skipped. Once the election closes nothing more of it is sent: the recipients left are counted as skipped (409 for a new one). Sent at REMINDER_RATE_PER_SECOND across all server processes.",
    body: CreateReminderBody,
    responses: { 202: CreateReminderResponse, ...errors(401, 403, 409, 404) },
    metadata: meta('admin'),
  },
  getReminder: {
    method: 'GET',
    path: '/reminders/:id',
    summary: 'Progress of a reminder campaign',
    pathParams: ReminderParams,
    responses: { 200: Reminder, ...errors(401, 403, 404) },
    metadata: meta('admin'),
  },
  listReminders: {
    method: 'GET',
    path: '/reminders',
    query: ElectionQuery,
    summary: 'Recent reminder campaigns, newest first',
    responses: { 200: z.object({ data: z.array(Reminder) }), ...errors(401, 403, 404) },
    metadata: meta('admin'),
  },
});
