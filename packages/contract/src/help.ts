import { z } from 'zod';
import { c, errors, IMAGE_MEDIA_TYPES, MessageBody, meta, PageQuery, paginated } from './common';
import { said } from './messages';

export const MAX_ISSUE_IMAGES = 5;

/** Text field of the multipart issue report; the `images[]` files are read by the upload middleware. */
export const ReportIssueBody = z.object({
  details: z
    .string({
      required_error: said('field.isRequired', { field: 'details' }),
      invalid_type_error: said('field.isRequired', { field: 'details' }),
    })
    .trim()
    .min(1, said('field.isRequired', { field: 'details' }))
    .max(5000, said('field.maxLength', { n: 5000 })),
});

export const IssueReport = z.object({
  id: z.number().int(),
  details: z.string(),
  role: z.enum(['voter', 'agent', 'admin']),
  reporter_id: z.number().int(),
  reporter_name: z.string(),
  /** URLs of the attached images */
  images: z.array(z.string()),
  created_at: z.string(),
});
export type IssueReport = z.infer<typeof IssueReport>;

export const helpRouter = c.router({
  reportIssue: {
    method: 'POST',
    path: '/help',
    summary: 'Report an issue (multipart: details and 0-5 images[])',
    description:
      'multipart/form-data: text field `details` and up to 5 files `images[]` (JPEG, PNG or WebP, at most 5 MiB each, checked by content).',
    contentType: 'multipart/form-data',
    body: ReportIssueBody,
    responses: { 201: MessageBody, ...errors(401, 403, 413, 415) },
    metadata: meta('signed-in', {
      files: [
        {
          name: 'images[]',
          maxCount: MAX_ISSUE_IMAGES,
          required: false,
          mediaTypes: IMAGE_MEDIA_TYPES,
          description: 'Up to 5 screenshots (JPEG, PNG or WebP, at most 5 MiB each)',
        },
      ],
    }),
  },
  listIssues: {
    method: 'GET',
    path: '/help',
    summary: 'List reported issues, newest first, paginated',
    query: PageQuery,
    responses: { 200: paginated(IssueReport), ...errors(401, 403) },
    metadata: meta('admin'),
  },
});
