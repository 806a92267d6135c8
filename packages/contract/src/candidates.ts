import { z } from 'zod';
import { c, Candidate, errors, IMAGE_MEDIA_TYPES, meta } from './common';
import { translationsSchema } from './languages';
import { ElectionQuery, nameSchema, optionalEmailSchema, pathIdSchema, registerPhoneSchema, textIdNumber } from './validation';
import { said } from './messages';

/**
 * `position_ids` in a multipart body arrives as one string, a list of strings, or not at all
 * (an empty selection cannot be sent as a form field), so absent means "no positions".
 */
export const multipartIdListSchema = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]),
  z.array(textIdNumber('position id')).max(100, said('field.atMostPositions', { n: 100 })),
);

/** A candidate's statement in other languages: language (en, sw) → {statement}. */
export const statementTranslations = translationsSchema({ statement: 2000 });

/** Text fields of the multipart candidate edit; the optional `image` file is read by the upload middleware. */
export const UpdateCandidateBody = z.object({
  name: nameSchema,
  /** Any accepted spelling; stored in E.164. */
  phone: registerPhoneSchema,
  /** Optional: absent or empty means none. */
  email: optionalEmailSchema,
  county: z
    .string({
      required_error: said('field.isRequired', { field: 'county' }),
      invalid_type_error: said('field.isRequired', { field: 'county' }),
    })
    .trim()
    .min(1, said('field.isRequired', { field: 'county' }))
    .max(150, said('field.maxLength', { n: 150 })),
  position_ids: multipartIdListSchema,
  /** The candidate's statement to voters, shown on the ballot; absent keeps it, empty clears it. */
  statement: z
    .string({ invalid_type_error: said('field.mustBeText', { field: 'statement' }) })
    .trim()
    .max(2000, said('field.maxLength', { n: 2000 }))
    .optional(),
  /**
   * The statement in other languages, as JSON text (a multipart field): `{"sw": {"statement": "…"}}`;
   * absent keeps them, `{}` clears them.
   */
  translations: z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  }, statementTranslations.optional()),
});

export const candidatesRouter = c.router({
  listCandidates: {
    method: 'GET',
    path: '/psk/candidates',
    query: ElectionQuery,
    summary: 'List candidates with their positions',
    responses: {
      200: z.object({ data: z.object({ data: z.object({ candidates: z.array(Candidate) }) }) }),
      ...errors(401, 403, 404),
    },
    metadata: meta('admin'),
  },
  updateCandidate: {
    method: 'POST',
    path: '/edit/candidate/:id',
    query: ElectionQuery,
    summary: 'Edit a candidate (multipart: optional `image` file plus text fields)',
    description:
      'multipart/form-data: optional file `image` (JPEG, PNG or WebP, at most 5 MiB, checked by content), and name, phone, email, county (branch id or name), position_ids[] (replaces the set), statement, translations (JSON text: language → {statement}). 409 when the new set adds or removes a position a vote has been cast for, for any edit once the election is closed (its candidates are part of the declared result), and for a change of the name of a member who stands in another election that has closed.',
    contentType: 'multipart/form-data',
    pathParams: z.object({ id: pathIdSchema }),
    body: UpdateCandidateBody,
    responses: { 200: z.object({ data: Candidate }), ...errors(401, 403, 404, 409, 413, 415) },
    metadata: meta('admin', {
      files: [
        {
          name: 'image',
          maxCount: 1,
          required: false,
          mediaTypes: IMAGE_MEDIA_TYPES,
          description: 'Profile picture (JPEG, PNG or WebP, at most 5 MiB)',
        },
      ],
    }),
  },
});
