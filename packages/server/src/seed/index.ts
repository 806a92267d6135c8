/**
 * Data the server puts in a database at start (src/bootstrap.ts) or from the CLI: the demo election,
 * set up through the modules' own services, and the staff accounts. Outside db/, which imports no
 * module.
 */
export {
  BRANCH_POSITION,
  DEMO_ADMIN,
  DEMO_AGENT,
  DEMO_CONTESTED_BRANCHES,
  DEMO_ELECTION,
  DEMO_VOTER_MEMBER_NO,
  isDatabaseEmpty,
  KENYA_COUNTIES,
  NATIONAL_POSITIONS,
  seedDemo,
  type DemoSummary,
} from './demo';
export { hasAdmin, upsertStaff } from './staff';
