import type { MessageKey } from '@/i18n';
import {
  Building2,
  CalendarRange,
  ClipboardCheck,
  FileCheck2,
  GraduationCap,
  House,
  ListChecks,
  ListOrdered,
  Megaphone,
  ScrollText,
  Smartphone,
  UserCog,
  UserSquare2,
  Users,
  Vote,
  type LucideIcon,
} from 'lucide-react';

export type MenuItem = {
  label: string;
  to: string;
  icon?: LucideIcon;
  /** the page subtitle shown in the page-title banner while this item is active */
  title: string;
  /** the catalogue's keys for label and title (docs/i18n.md); a menu without them shows the English */
  labelKey?: MessageKey;
  titleKey?: MessageKey;
};

/** Menus (docs/screens.md "Screens"): Voter: Home, Voting, My receipts, On the roll?, Tutorial. */
export const VOTER_MENU: MenuItem[] = [
  { label: 'Home', to: '/voter', icon: House, title: 'Dashboard', labelKey: 'menu.voter.home', titleKey: 'menu.voter.homeTitle' },
  {
    label: 'Voting',
    to: '/voter/elect',
    icon: Vote,
    title: 'Elections',
    labelKey: 'menu.voter.voting',
    titleKey: 'menu.voter.votingTitle',
  },
  {
    label: 'My receipts',
    to: '/voter/vpat',
    icon: FileCheck2,
    title: 'My receipts',
    labelKey: 'menu.voter.vvpt',
    titleKey: 'menu.voter.vvptTitle',
  },
  {
    label: 'On the roll?',
    to: '/voter/register',
    icon: ClipboardCheck,
    title: 'Am I on the roll?',
    labelKey: 'menu.voter.register',
    titleKey: 'menu.voter.registerTitle',
  },
  {
    label: 'Nominations',
    to: '/voter/nominate',
    icon: Megaphone,
    title: 'Nominations',
    labelKey: 'menu.voter.nominations',
    titleKey: 'menu.voter.nominationsTitle',
  },
  {
    label: 'Tutorial',
    to: '/voter/education',
    icon: GraduationCap,
    title: 'Voting Tutorial',
    labelKey: 'menu.voter.tutorial',
    titleKey: 'menu.voter.tutorialTitle',
  },
];

/** Subtitles of voter pages that are not menu items, by catalogue key. None now: Nominations is in the menu. */
export const VOTER_EXTRA_TITLES: Record<string, MessageKey> = {};

/** Menus (docs/screens.md "Screens"): Admin: Home, Manage, Elections, Organisation, Set-up, Candidates, Nominations, Register, Staff, USSD, Logs, Receipts. */
export const ADMIN_MENU: MenuItem[] = [
  { label: 'Home', to: '/admin', icon: House, title: 'Admin Dashboard', labelKey: 'menu.admin.home', titleKey: 'menu.admin.homeTitle' },
  {
    label: 'Manage',
    to: '/admin/members',
    icon: Users,
    title: 'Manage Members',
    labelKey: 'menu.admin.manage',
    titleKey: 'menu.admin.manageTitle',
  },
  {
    label: 'Elections',
    to: '/admin/elections',
    icon: CalendarRange,
    title: 'Elections',
    labelKey: 'menu.admin.elections',
    titleKey: 'menu.admin.electionsTitle',
  },
  {
    label: 'Organisation',
    to: '/admin/organisation',
    icon: Building2,
    title: 'Organisation',
    labelKey: 'menu.admin.organisation',
    titleKey: 'menu.admin.organisationTitle',
  },
  {
    label: 'Set-up',
    to: '/admin/setup',
    icon: ListChecks,
    title: 'Election Set-up',
    labelKey: 'menu.admin.setup',
    titleKey: 'menu.admin.setupTitle',
  },
  {
    label: 'Candidates',
    to: '/admin/candidates',
    icon: UserSquare2,
    title: 'Candidates',
    labelKey: 'menu.admin.candidates',
    titleKey: 'menu.admin.candidatesTitle',
  },
  {
    label: 'Nominations',
    to: '/admin/nominations',
    icon: Megaphone,
    title: 'Nominations',
    labelKey: 'menu.admin.nominations',
    titleKey: 'menu.admin.nominationsTitle',
  },
  {
    label: 'Register',
    to: '/admin/register',
    icon: ListOrdered,
    title: 'The register: roll and claims',
    labelKey: 'menu.admin.register',
    titleKey: 'menu.admin.registerTitle',
  },
  {
    label: 'Staff',
    to: '/admin/staff',
    icon: UserCog,
    title: 'Admins and Agents',
    labelKey: 'menu.admin.staff',
    titleKey: 'menu.admin.staffTitle',
  },
  {
    label: 'USSD',
    to: '/admin/ussd',
    icon: Smartphone,
    title: 'Voting by USSD',
    labelKey: 'menu.admin.ussd',
    titleKey: 'menu.admin.ussdTitle',
  },
  {
    label: 'Logs',
    to: '/admin/logs',
    icon: ScrollText,
    title: 'System Logs',
    labelKey: 'menu.admin.logs',
    titleKey: 'menu.admin.logsTitle',
  },
  {
    label: 'Receipts',
    to: '/admin/vpat',
    icon: FileCheck2,
    title: 'Receipts of every ballot',
    labelKey: 'menu.admin.vvpat',
    titleKey: 'menu.admin.vvpatTitle',
  },
];

/** Admin pages that are not menu items: their subtitles, by catalogue key. */
export const ADMIN_EXTRA_TITLES: Record<string, MessageKey> = {
  '/admin/issues': 'menu.admin.issuesTitle',
  '/admin/reminders': 'admin.dashboard.reminders',
};

/** Menus (docs/screens.md "Screens"): Agent: Home. */
export const AGENT_MENU: MenuItem[] = [
  { label: 'Home', to: '/agent', icon: House, title: 'Agent Dashboard', labelKey: 'menu.agent.home', titleKey: 'menu.agent.homeTitle' },
];
