import type { Staff } from '@kura/contract';
import type { StaffRow } from '../../db/staff-store';

/** A staff row as the API answers it (docs/api.md "Running it on your own"). */
export function staffRecord(row: StaffRow): Staff {
  return { id: row.id, email: row.email, name: row.name || null, role: row.role, created_at: row.createdAt.toISOString() };
}
