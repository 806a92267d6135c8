import { z } from 'zod';
import { c, errors, meta } from './common';
import { SetupIdParams } from './setup';
import { emailSchema } from './validation';

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
  .string({ required_error: 'The name field is required', invalid_type_error: 'The name field is required' })
  .trim()
  .min(1, 'The name field is required')
  .max(100, 'Must be at most 100 characters long');

export const CreateStaffBody = z.object({
  email: emailSchema,
  role: z.enum(['admin', 'agent'], {
    required_error: 'The role field is required',
    invalid_type_error: 'The role must be admin or agent',
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
    .string({ required_error: 'The token field is required', invalid_type_error: 'The token field is required' })
    .min(1, 'The token field is required')
    .max(500, 'Must be at most 500 characters long'),
  password: z
    .string({ required_error: 'The password field is required', invalid_type_error: 'The password field is required' })
    .min(STAFF_PASSWORD_MIN, `Must be at least ${STAFF_PASSWORD_MIN} characters long`)
    .max(200, 'Must be at most 200 characters long'),
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
