import { z } from 'zod';
import { c, errors, meta } from './common';
import { SetupIdParams } from './setup';
import { emailSchema } from './validation';
import { said } from './messages';

/** A member of staff: an admin (runs the back office) or an agent (observes, read-only). */
export const Staff = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(['admin', 'agent']),
  created_at: z.string(),
});
export type Staff = z.infer<typeof Staff>;

const nameSchema = z
  .string({ required_error: said('field.isRequired', { field: 'name' }), invalid_type_error: said('field.isRequired', { field: 'name' }) })
  .trim()
  .min(1, said('field.isRequired', { field: 'name' }))
  .max(100, said('field.maxLength', { n: 100 }));

export const CreateStaffBody = z.object({
  email: emailSchema,
  role: z.enum(['admin', 'agent'], {
    required_error: said('field.isRequired', { field: 'role' }),
    invalid_type_error: said('field.oneOf', { field: 'role', options: ['admin', 'agent'] }),
  }),
  name: nameSchema.optional(),
});
export type CreateStaffBody = z.infer<typeof CreateStaffBody>;

export const UpdateOwnStaffBody = z.object({ name: nameSchema });
export type UpdateOwnStaffBody = z.infer<typeof UpdateOwnStaffBody>;

/** A new password: at least 8 characters, as ADMIN_PASSWORD and `cli admin:create` require. */
export const STAFF_PASSWORD_MIN = 8;
export const SetStaffPasswordBody = z.object({
  token: z
    .string({
      required_error: said('field.isRequired', { field: 'token' }),
      invalid_type_error: said('field.isRequired', { field: 'token' }),
    })
    .min(1, said('field.isRequired', { field: 'token' }))
    .max(500, said('field.maxLength', { n: 500 })),
  password: z
    .string({
      required_error: said('field.isRequired', { field: 'password' }),
      invalid_type_error: said('field.isRequired', { field: 'password' }),
    })
    .min(STAFF_PASSWORD_MIN, said('field.minLength', { n: STAFF_PASSWORD_MIN }))
    .max(200, said('field.maxLength', { n: 200 })),
});
export type SetStaffPasswordBody = z.infer<typeof SetStaffPasswordBody>;

const StaffBody = z.object({ data: Staff });

export const staffRouter = c.router({
  listStaff: {
    method: 'GET',
    path: '/staff',
    summary: 'Every admin and agent, oldest first',
    responses: { 200: z.object({ data: z.array(Staff) }), ...errors(401, 403) },
    metadata: meta('admin'),
  },
  createStaff: {
    method: 'POST',
    path: '/staff',
    summary: 'Add an admin or agent',
    description:
      'An agent signs in by e-mailed code at once. An admin is e-mailed a link to set a password (valid 7 days, used once), then signs in with it and an e-mailed code. 409 when the e-mail is already staff.',
    body: CreateStaffBody,
    responses: { 201: StaffBody, ...errors(401, 403, 409, 422) },
    metadata: meta('admin'),
  },
  deleteStaff: {
    method: 'DELETE',
    path: '/staff/:id',
    pathParams: SetupIdParams,
    summary: 'Remove an admin or agent; their sessions end',
    description: 'Neither the last admin nor oneself can be removed (409).',
    responses: { 204: c.noBody(), ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
  updateOwnStaff: {
    method: 'PATCH',
    path: '/staff/me',
    summary: 'Set one’s own display name (admin or agent)',
    body: UpdateOwnStaffBody,
    responses: { 200: StaffBody, ...errors(401, 403, 422) },
    metadata: meta('agent'),
  },
  getStaffStatus: {
    method: 'GET',
    path: '/staff/status',
    summary: 'Whether the installation has an admin yet',
    description: 'Open to anyone: the first screens of an empty install say how to create the first admin while `admin_exists` is false.',
    responses: { 200: z.object({ data: z.object({ admin_exists: z.boolean() }) }), ...errors() },
    metadata: meta('anyone'),
  },
  setStaffPassword: {
    method: 'POST',
    path: '/staff/password',
    summary: 'Set an admin’s password with the token of the e-mailed link',
    description: 'The token is single use (setting the password spends it) and lapses after 7 days. 422 when it is invalid or spent.',
    body: SetStaffPasswordBody,
    responses: { 204: c.noBody(), ...errors(422) },
    metadata: meta('anyone'),
  },
});
