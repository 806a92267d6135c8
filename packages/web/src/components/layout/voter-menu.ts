import { FileCheck2, GraduationCap, House, Vote } from 'lucide-react';
import type { MenuItem } from './app-shell';

/** Menus (docs/screens.md "Screens"): Voter: Home, Voting, Vvpt, Tutorial. */
export const VOTER_MENU: MenuItem[] = [
  { label: 'Home', to: '/voter', icon: House, title: 'Dashboard' },
  { label: 'Voting', to: '/voter/elect', icon: Vote, title: 'Elections' },
  { label: 'Vvpt', to: '/voter/vpat', icon: FileCheck2, title: 'Verifiable Paper Audit Trail' },
  { label: 'Tutorial', to: '/voter/education', icon: GraduationCap, title: 'Voting Tutorial' },
];

export const VOTER_EXTRA_TITLES: Record<string, string> = { '/voter/nominate': 'Nominations' };
