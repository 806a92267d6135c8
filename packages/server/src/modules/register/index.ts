/**
 * The register module's public face (docs/api.md "The register"): the roll and eligibility API
 * other modules use (nominations, candidates), the attribute and rule checks, and the factory.
 */
export {
  rollMembers,
  rollSize,
  isOnRoll,
  unmetRules,
  referenceDay,
  readAttributeDefs,
  eligibilityChecks,
  describeRule,
  type RollEntry,
  type EligibilityCheck,
} from './roll';
export { checkRules, checkElectedIn, checkMemberAttributes, mergeAttributes, shownAttributes } from './attributes';
export { freezeDue } from './register.service';
export * from './module';
