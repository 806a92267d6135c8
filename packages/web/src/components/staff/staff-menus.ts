import { FileCheck2, House, ListChecks, ScrollText, UserSquare2, Users } from 'lucide-react';
import type { MenuItem } from '@/components/layout/app-shell';

/** Menus (docs/screens.md "Screens"): Admin: Home, Manage, Set-up, Candidates, Logs, VvPat. */
export const ADMIN_MENU: MenuItem[] = [
  { label: 'Home', to: '/admin', icon: House, title: 'Admin Dashboard' },
  { label: 'Manage', to: '/admin/members', icon: Users, title: 'Manage Members' },
  { label: 'Set-up', to: '/admin/setup', icon: ListChecks, title: 'Election Set-up' },
  { label: 'Candidates', to: '/admin/candidates', icon: UserSquare2, title: 'Candidates' },
  { label: 'Logs', to: '/admin/logs', icon: ScrollText, title: 'System Logs' },
  { label: 'VvPat', to: '/admin/vpat', icon: FileCheck2, title: 'Verifiable Paper Audit Trail' },
];

/** Admin pages that are not menu items. */
export const ADMIN_EXTRA_TITLES: Record<string, string> = { '/admin/issues': 'Issue Reports', '/admin/reminders': 'Reminders' };

/** Menus (docs/screens.md "Screens"): Agent: Home. */
export const AGENT_MENU: MenuItem[] = [{ label: 'Home', to: '/agent', icon: House, title: 'Agent Dashboard' }];
